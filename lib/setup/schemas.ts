// The first-run wizard's shapes (issue 12, item 4), shared by the server and the browser. Pure:
// the brand and prompt rules are the ones of lib/brands and lib/prompts, not a copy.
import { z } from "zod";
import { registrableDomain } from "@/lib/analysis/citations";
import { brandInputSchema } from "@/lib/brands/schemas";
import { pickedProvidersSchema } from "@/lib/checks/schemas";
import { promptInputSchema } from "@/lib/prompts/schemas";
import { normalizeHost } from "@/lib/analysis/host";

/** The languages the wizard offers for the questions (the simulator writes en, de and ru; others get English). */
export const SETUP_LANGUAGES = [
  { code: "en", label: "English" },
  { code: "de", label: "German" },
  { code: "ru", label: "Russian" },
  { code: "fr", label: "French" },
  { code: "es", label: "Spanish" },
] as const;

export const languageName = (code: string) => SETUP_LANGUAGES.find((l) => l.code === code)?.label ?? code;

/** How many questions a proposal asks for, and how few are still worth showing. */
export const MIN_QUESTIONS = 5;
export const MAX_QUESTIONS = 30;
export const MAX_COMPETITORS = 8;

/** A website as typed ("https://www.shop.acme.co.uk/about") -> its registrable domain ("acme.co.uk"), or null. */
export function registrableDomainOf(input: string): string | null {
  const trimmed = input.trim().toLowerCase();
  if (!trimmed || /\s/.test(trimmed)) return null;
  // The citations' definition, so a brand on a private suffix (acme.github.io) is its own site;
  // an international name in ASCII form, as brands store it (normalizeHost).
  const domain = registrableDomain(`https://${normalizeHost(trimmed)}`);
  return domain && domain.includes(".") ? domain : null;
}

/**
 * A website as typed ("https://www.northwind-outdoor.co.uk/tents?ref=x") -> the address whose words
 * the suggestions start from: host without "www." and path, lowercase, no query or fragment
 * ("northwind-outdoor.co.uk/tents"). Null when it is no website.
 */
export function siteAddressOf(input: string): string | null {
  const trimmed = input.trim();
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
    const path = url.pathname.replace(/\/+$/, "");
    return `${url.hostname.replace(/^www\./, "")}${path}`.toLowerCase().slice(0, 200);
  } catch {
    return null;
  }
}

/** The website -> its registrable domain (the brand's own) and the address as typed. */
const website = z
  .string()
  .max(500, "That address is too long")
  .transform((value, ctx) => {
    const domain = registrableDomainOf(value);
    if (!domain) ctx.addIssue({ code: "custom", message: "Enter your website's domain, such as acme.com" });
    return domain ? { domain, address: siteAddressOf(value) ?? domain } : z.NEVER;
  });

export const MAX_OFFERING = 80;

/**
 * Step 1: the website, the questions' language and country, optionally what the site sells (in
 * the person's words, for the category), and the connection that writes the suggestions.
 */
export const startSetupSchema = z
  .object({
    domain: website,
    offering: z
      .string()
      .trim()
      .max(MAX_OFFERING, `Say it in at most ${MAX_OFFERING} characters`)
      .transform((value) => value.replace(/\s+/g, " ") || undefined)
      .optional(),
    language: z
      .string()
      .trim()
      .regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})?$/, "Use a language code such as en or pt-BR"),
    country: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, "Use a two-letter country code such as US or DE")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    connectionId: z.uuid("Pick a connection"),
  })
  .transform(({ domain: site, ...rest }) => ({ ...rest, ...site }));

export type StartSetupInput = z.input<typeof startSetupSchema>;

/** A proposal as stored (setup_suggestions.result) and as the editor starts from. */
export type SetupProposal = {
  brand: { name: string; aliases: string[]; domains: string[] };
  competitors: { name: string; aliases: string[]; domains: string[] }[];
  questions: { text: string; tags: string[] }[];
};

/** Step 2: the edited proposal, accepted once; the brand and questions follow lib/brands and lib/prompts. */
export const acceptSetupSchema = z.object({
  suggestionId: z.uuid("Unknown suggestion"),
  brand: brandInputSchema,
  questions: z.array(promptInputSchema).min(1, "Keep at least one question").max(MAX_QUESTIONS * 2, `Ask at most ${MAX_QUESTIONS * 2} questions`),
  providerConfigIds: pickedProvidersSchema,
});

export type AcceptSetupInput = z.input<typeof acceptSetupSchema>;
export type ParsedAcceptSetup = z.output<typeof acceptSetupSchema>;

export type SetupSuggestionStatus = "queued" | "running" | "succeeded" | "failed";
export const isSuggestionDone = (status: SetupSuggestionStatus | undefined) => status === "succeeded" || status === "failed";
