// The one prompt a real connection gets for a first run's suggestions. It asks for JSON in the
// shape lib/setup/parse-proposal.ts reads (which tolerates fences and prose around it).
import { worstCaseCost, type PriceTable } from "@/lib/billing/money";
import type { CallLimits } from "@/lib/providers/types";
import { languageName, MAX_COMPETITORS, MAX_QUESTIONS } from "./schemas";

/** 30 questions and 8 competitors in JSON take about 3,000 tokens; the worst case of this is what is reserved. */
const SETUP_OUTPUT_TOKENS = 4096;

/** The limits sent with the call, and so its worst case (reserved) and its estimate (charged when its outcome is unknown). */
export const setupCallLimits = (connection: { maxOutputTokens: number }): CallLimits => ({ maxOutputTokens: Math.max(connection.maxOutputTokens, SETUP_OUTPUT_TOKENS), maxSearchCalls: 0 });

/** The most the call for `input` may cost on `connection`: what the request, and again the run's claim, reserve. */
export const setupWorstCase = (input: SetupPromptInput, connection: PriceTable & { maxOutputTokens: number }) =>
  worstCaseCost(setupPrompt(input), "off", setupCallLimits(connection), connection);

/** What a prompt is written from: the registrable domain, and (from the wizard, since issue 19) the address as typed and "what do you sell". */
export type SetupPromptInput = { domain: string; address?: string | null; offering?: string | null; language: string; country?: string | null };

export function setupPrompt(input: SetupPromptInput): string {
  const where = input.country ? ` in ${input.country}` : "";
  // The page they entered and their own words say more than the domain alone (a shop's /tents).
  const page = input.address && input.address !== input.domain ? ` (they entered ${input.address})` : "";
  return [
    `You help a marketing team measure how AI assistants talk about their brand. Their website is ${input.domain}${page}.`,
    ...(input.offering ? [`In their own words, they sell: ${JSON.stringify(input.offering)}. Choose the category and competitors accordingly.`] : []),
    `Reply with one JSON object and nothing else, in this shape:`,
    `{"brand": {"name": "...", "aliases": ["..."], "domains": ["..."]},`,
    ` "competitors": [{"name": "...", "aliases": ["..."], "domains": ["..."]}],`,
    ` "questions": [{"text": "...", "tag": "..."}]}`,
    `- brand: the brand's usual name, other spellings or short names people use, and its own domains.`,
    `- competitors: the 5 to ${MAX_COMPETITORS} brands buyers most often compare it with, each with its domains.`,
    `- questions: 20 to ${MAX_QUESTIONS} questions a buyer${where} would ask an AI assistant while choosing in this category, written in ${languageName(input.language)} (${input.language}).`,
    `  Most should not name the brand; some compare it with competitors or ask for alternatives. Each has one short lowercase tag`,
    `  such as discovery, comparison, alternatives, pricing or reviews.`,
  ].join("\n");
}
