import { z } from "zod";

const entity = z.object({
  name: z.string().trim().min(1),
  aliases: z.array(z.string()).default([]),
  caseSensitiveAliases: z.array(z.string()).default([]),
  domains: z.array(z.string()).default([]),
});

/** The input of `npm run beacon -- analyze <file.json>`. */
export const analysisFileSchema = z.object({
  answer: z.string(),
  brand: entity,
  competitors: z.array(entity).default([]),
  /** The prompt's language (BCP 47, e.g. "ru"); detected from the answer when absent. */
  language: z.string().optional(),
  sources: z.array(z.object({ url: z.string(), title: z.string().optional() }).transform((s) => ({ ...s, citedInText: true }))).default([]),
});
