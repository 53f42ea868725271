import { z } from "zod";
import { text } from "@/lib/validation/text";

export const MAX_PROMPT_LENGTH = 4000;
export const MAX_BULK_PROMPTS = 500;

// Through text(): NFKC, so a full-width "ＳＥＯ" is the tag "seo".
const tag = text({ min: 1, max: 40, label: "A tag" })
  .transform((value) => value.toLowerCase())
  .pipe(z.string().regex(/^[\p{L}\p{N}][\p{L}\p{N} _.-]*$/u, "Tags use letters, digits, spaces, dots, dashes and underscores"));

export const tagsSchema = z
  .array(tag)
  .max(10, "Use at most 10 tags")
  .transform((list) => [...new Set(list)]);

// Multi-line: a question may list what to compare.
const promptText = text({ max: MAX_PROMPT_LENGTH, multiline: true, label: "A prompt" }).pipe(z.string().min(3, "Write a question of at least 3 characters"));

const country = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, "Use a two-letter country code such as US or DE")
  .optional()
  .or(z.literal("").transform(() => undefined));

const language = z
  .string()
  .trim()
  .regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})?$/, "Use a language code such as en or pt-BR")
  .optional()
  .or(z.literal("").transform(() => undefined));

const city = text({ max: 80, label: "The city" })
  .optional()
  .transform((value) => value?.trim() || undefined);

export const promptInputSchema = z
  .object({ text: promptText, tags: tagsSchema.default([]), country, city, language })
  .refine((p) => !p.city || p.country, { message: "Give the city's country too", path: ["country"] });

export const bulkPromptsSchema = z.object({
  // Cap the raw paste before splitting so a huge body is refused cheaply.
  lines: text({ max: MAX_BULK_PROMPTS * (MAX_PROMPT_LENGTH + 1), multiline: true, label: "The paste" }),
  tags: tagsSchema.default([]),
});

export const promptListQuerySchema = z.object({
  q: text({ max: 200, label: "The search" }).optional(),
  tag: text({ max: 40, label: "The tag" })
    .transform((tag) => tag.toLowerCase())
    .optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(5).max(100).default(25),
});

/** Splits a paste into prompts, one per non-empty line; reports the lines that are not valid. */
export function splitPromptLines(lines: string): { texts: string[]; errors: string[] } {
  const texts: string[] = [];
  const errors: string[] = [];
  lines.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (!line) return;
    const parsed = promptText.safeParse(line);
    if (parsed.success) texts.push(parsed.data);
    else errors.push(`Line ${index + 1}: ${parsed.error.issues[0]?.message}`);
  });
  return { texts, errors };
}

export type PromptInput = z.input<typeof promptInputSchema>;
export type ParsedPromptInput = z.output<typeof promptInputSchema>;
