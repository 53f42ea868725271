import { z } from "zod";
import { isValidAsciiHost, normalizeHost } from "@/lib/analysis/host";
import { text } from "@/lib/validation/text";

const name = text({ max: 100, label: "A name" }).pipe(z.string().min(1, "Enter a name"));

const aliases = z
  .array(text({ min: 1, max: 100, label: "An alias" }))
  .max(20, "Use at most 20 aliases")
  .transform((list) => [...new Set(list)]);

/**
 * Accepts "https://www.example.com/path" or "example.com" and keeps the host name, stored as
 * normalizeHost writes it (an international name in its ASCII form), so it compares equal to the
 * hosts of citations, crawler hits and visits.
 */
export const domainSchema = z
  .string()
  .transform(normalizeHost)
  .pipe(
    z
      .string()
      .max(253)
      .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/, "Enter a domain such as example.com")
      // A malformed "xn--" label passes the pattern; the URL standard's parser refuses it.
      .refine(isValidAsciiHost, "Enter a domain such as example.com"),
  );

const domains = z.array(domainSchema).max(20, "Use at most 20 domains").transform((list) => [...new Set(list)]);

export const competitorInputSchema = z.object({
  id: z.uuid().optional(),
  name,
  aliases: aliases.default([]),
  caseSensitiveAliases: aliases.default([]),
  domains: domains.default([]),
});

export const brandInputSchema = z
  .object({
    name,
    aliases: aliases.default([]),
    caseSensitiveAliases: aliases.default([]),
    domains: domains.default([]),
    competitors: z.array(competitorInputSchema).max(25, "Track at most 25 competitors per brand").default([]),
  })
  .superRefine((brand, issue) => {
    const seen = new Set([brand.name.toLowerCase()]);
    brand.competitors.forEach((c, i) => {
      const key = c.name.toLowerCase();
      if (seen.has(key)) issue.addIssue({ code: "custom", path: ["competitors", i, "name"], message: `"${c.name}" is listed twice` });
      seen.add(key);
    });
  });

export type BrandInput = z.input<typeof brandInputSchema>;
export type ParsedBrandInput = z.output<typeof brandInputSchema>;
