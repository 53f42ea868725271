import { z } from "zod";
import { registrableDomain } from "@/lib/analysis/citations";
import { OVERRIDABLE_CATEGORIES } from "@/lib/sources/categories";
import { isValidAsciiHost, normalizeHost } from "@/lib/analysis/host";

/** A registrable domain as citations store it ("g2.com", "example.co.uk"), from what a user typed. */
export const overrideDomain = z
  .string()
  .trim()
  .max(253)
  .transform(normalizeHost)
  .refine((d) => isValidAsciiHost(d) && registrableDomain(d) === d, {
    message: 'Enter a registrable domain such as "g2.com" (no subdomain, path or scheme).',
  });

/** Sets a domain's category in one workspace; null returns it to the shipped mapping. */
export const sourceCategoryInput = z.object({
  domain: overrideDomain,
  category: z.enum(OVERRIDABLE_CATEGORIES).nullable(),
});

export type SourceCategoryInput = z.input<typeof sourceCategoryInput>;
