import { z } from "zod";
import { CHECK_STATUSES } from "@/lib/captures/states";
import { text } from "@/lib/validation/text";

export const MAX_PROMPTS_PER_CHECK = 1000;
export const MAX_CAPTURES_PER_CHECK = 5000;
export const MAX_SAMPLES = 5;

export const idempotencyKeySchema = z
  .string()
  .trim()
  .min(8, "The idempotency key must have at least 8 characters")
  .max(200, "The idempotency key can have at most 200 characters")
  .regex(/^[\x21-\x7e]+$/, "The idempotency key must be printable ASCII without spaces");

export const promptSelectionSchema = z.discriminatedUnion("mode", [
  z.object({ mode: z.literal("all") }),
  z.object({ mode: z.literal("tag"), tag: text({ max: 40, label: "The tag" }).pipe(z.string().min(1, "Pick a tag").toLowerCase()) }),
  z.object({
    mode: z.literal("picked"),
    promptIds: z
      .array(z.uuid("Unknown prompt"))
      .min(1, "Pick at least one prompt")
      .max(MAX_PROMPTS_PER_CHECK, `A check can ask at most ${MAX_PROMPTS_PER_CHECK} prompts`),
  }),
]);

export type PromptSelection = z.infer<typeof promptSelectionSchema>;

/** The providers a check asks (the Check form, a schedule, the setup wizard's first check). */
export const pickedProvidersSchema = z.array(z.uuid("Unknown provider")).min(1, "Pick at least one provider").max(20, "Pick at most 20 providers");

/** The "Check" form. */
export const startCheckSchema = z.object({
  idempotencyKey: idempotencyKeySchema,
  brandId: z.uuid("Pick a brand"),
  prompts: promptSelectionSchema,
  providerConfigIds: pickedProvidersSchema,
  samples: z.coerce.number().int().min(1, "At least 1 sample").max(MAX_SAMPLES, `At most ${MAX_SAMPLES} samples`),
});

export type StartCheckInput = z.infer<typeof startCheckSchema>;

export const checkListQuerySchema = z.object({
  status: z.enum(CHECK_STATUSES).optional(),
  brandId: z.uuid().optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(5).max(100).default(20),
});
