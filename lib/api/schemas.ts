import { z } from "zod";
import { MAX_PROMPTS_PER_CHECK, MAX_SAMPLES } from "@/lib/checks/schemas";
import { MAX_PROMPT_LENGTH } from "@/lib/prompts/schemas";
import { CHECK_STATUSES } from "@/lib/captures/states";
import { text } from "@/lib/validation/text";

export const createCheckBody = z
  .object({
    brandId: z.uuid("brandId must be a brand's id").optional(),
    prompts: z
      .array(
        z.union([
          z.uuid("a prompt must be a prompt id or { \"text\": \"...\" }"),
          z.object({ text: text({ min: 3, max: MAX_PROMPT_LENGTH, multiline: true, label: "A prompt" }) }).strict(),
        ]),
      )
      .min(1, "give at least one prompt, or leave prompts out to use all")
      .max(MAX_PROMPTS_PER_CHECK, `a check can ask at most ${MAX_PROMPTS_PER_CHECK} prompts`)
      .optional(),
    tag: text({ min: 1, max: 40, label: "The tag" })
      .transform((tag) => tag.toLowerCase())
      .optional(),
    providers: z
      .array(text({ min: 1, max: 100, label: "A provider name" }))
      .min(1, "name at least one provider (GET /api/v1/providers lists them)")
      .max(20),
    samples: z.number().int().min(1).max(MAX_SAMPLES).default(1),
  })
  .strict()
  .refine((body) => !(body.prompts && body.tag), { message: "use either prompts or tag, not both", path: ["tag"] });

export type CreateCheckBody = z.output<typeof createCheckBody>;

export const listQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

export const checksListQuery = listQuery.extend({
  status: z.enum(CHECK_STATUSES).optional(),
});

/** Largest page of a check's captures the API returns (a check has at most MAX_CAPTURES_PER_CHECK). */
export const MAX_CAPTURES_PAGE = 1000;

export const checkCapturesQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_CAPTURES_PAGE).default(MAX_CAPTURES_PAGE),
});
