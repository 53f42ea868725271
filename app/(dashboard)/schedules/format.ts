// Absolute times on the schedules page are shown in UTC, the zone schedules are defined in.
const utc = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

/** "Mon 30 Nov, 09:00 UTC". */
export const formatUtc = (date: Date | string) => `${utc.format(new Date(date))} UTC`;
