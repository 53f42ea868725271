// The channel form and the channel actions validate with these (the same schema in the browser
// for inline errors and on the server for the truth). What a URL may point at (https, public
// addresses, Slack's host) is checked on the server in lib/alerts/safe-url.ts.
import { z } from "zod";
import { text } from "@/lib/validation/text";

export const CHANNEL_KINDS = ["email", "slack", "webhook"] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];
/** `sending`: a send under way; `unknown`: a send that may have arrived, never recorded (lib/alerts/deliveries.ts). */
export const DELIVERY_STATUSES = ["pending", "sending", "delivered", "failed", "unknown"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
/** A delivery still to end: waiting for its job (or its retry), or being sent. */
export const UNFINISHED_DELIVERY_STATUSES = ["pending", "sending"] as const satisfies readonly DeliveryStatus[];
export const isUnfinishedDelivery = (status: string) => (UNFINISHED_DELIVERY_STATUSES as readonly string[]).includes(status);
/** A delivery that ended: each is an outcome the metric counts (beacon_count_alert_delivery), and retention deletes it in time. */
export const ENDED_DELIVERY_STATUSES = DELIVERY_STATUSES.filter((s): s is Exclude<DeliveryStatus, (typeof UNFINISHED_DELIVERY_STATUSES)[number]> => !isUnfinishedDelivery(s));

export const MAX_EMAIL_RECIPIENTS = 20;

const name = text({ max: 100, label: "A name" }).pipe(z.string().min(1, "Enter a name"));

// The form sends the addresses as typed (commas, spaces or lines between them).
const recipients = z.preprocess(
  (value) => (typeof value === "string" ? value.split(/[\s,;]+/).filter(Boolean) : value),
  z
    .array(z.email("Enter valid email addresses, separated by commas"), "Enter at least one email address")
    .min(1, "Enter at least one email address")
    .max(MAX_EMAIL_RECIPIENTS, `At most ${MAX_EMAIL_RECIPIENTS} addresses`)
    .transform((list) => [...new Set(list.map((a) => a.toLowerCase()))]),
);

const url = text({ max: 2000, label: "A URL" }).pipe(z.url("Enter a full URL, starting with https://"));

export const channelInputSchema = z.discriminatedUnion(
  "kind",
  [
    z.object({ kind: z.literal("email"), name, to: recipients }),
    z.object({ kind: z.literal("slack"), name, url }),
    z.object({ kind: z.literal("webhook"), name, url }),
  ],
  "Pick email, Slack or webhook",
);
export type ChannelInput = z.infer<typeof channelInputSchema>;

export const channelIdSchema = z.object({ channelId: z.uuid("Unknown channel") });

export const updateChannelSchema = z.intersection(channelIdSchema, channelInputSchema);
export type UpdateChannelInput = z.infer<typeof updateChannelSchema>;

export const deliveryIdSchema = z.object({ deliveryId: z.uuid("Unknown delivery") });

export const DELIVERY_PAGE_SIZE = 25;

export const deliveryListSchema = z.object({
  page: z.number().int().min(1).max(10_000).default(1),
  channelId: z.uuid("Unknown channel").optional(),
  status: z.enum(DELIVERY_STATUSES, "Unknown status").optional(),
});
export type DeliveryListInput = z.infer<typeof deliveryListSchema>;

/** What a channel stores in `config`, by kind. */
export type ChannelConfig = { to: string[] } | { url: string };
