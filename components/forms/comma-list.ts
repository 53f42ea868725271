/** What a comma-separated field holds: its items, trimmed, empty ones left out. */
export const commaList = (value: string) =>
  value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
