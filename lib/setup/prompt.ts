// The one prompt a real connection gets for a first run's suggestions. It asks for JSON in the
// shape lib/setup/parse-proposal.ts reads (which tolerates fences and prose around it).
import { languageName, MAX_COMPETITORS, MAX_QUESTIONS } from "./schemas";

export function setupPrompt(input: { domain: string; language: string; country?: string | null }): string {
  const where = input.country ? ` in ${input.country}` : "";
  return [
    `You help a marketing team measure how AI assistants talk about their brand. Their website is ${input.domain}.`,
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
