// Reads a model's answer to the setup prompt (lib/setup/prompt.ts) into a SetupProposal, the way
// models actually answer: JSON alone, in a ```json fence, or with prose around it. Everything is
// cleaned with the rules the brand and prompt forms use (lib/brands/schemas.ts,
// lib/prompts/schemas.ts): trimmed, de-duplicated, capped; what does not pass is dropped, not
// fixed. Too little left is an error that says what was missing. Pure (the simulator's proposals
// go through it too).
import { z } from "zod";
import { competitorInputSchema, domainSchema } from "@/lib/brands/schemas";
import { promptInputSchema, tagsSchema } from "@/lib/prompts/schemas";
import { MAX_COMPETITORS, MAX_QUESTIONS, MIN_QUESTIONS, registrableDomainOf, type SetupProposal } from "./schemas";

export class ProposalError extends Error {}

/** The JSON objects in a text, outermost first: fenced blocks, then each balanced {...}. */
export function jsonCandidates(text: string): unknown[] {
  const found: unknown[] = [];
  const tryParse = (s: string) => {
    try {
      const value: unknown = JSON.parse(s);
      if (value && typeof value === "object" && !Array.isArray(value)) found.push(value);
    } catch {
      // not JSON; the next candidate may be
    }
  };
  for (const fence of text.matchAll(/```[a-zA-Z]*\s*\n?([\s\S]*?)```/g)) tryParse(fence[1]!.trim());
  for (let start = text.indexOf("{"); start !== -1 && found.length < 5; start = text.indexOf("{", start + 1)) {
    const end = balancedEnd(text, start);
    if (end === -1) continue;
    tryParse(text.slice(start, end + 1));
    if (found.length) break; // the outermost object that parses is the answer
  }
  return found;
}

/** Index of the brace closing the one at `start`, skipping strings; -1 if it never closes. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
  }
  return -1;
}

// What the answer may look like: names as strings, lists possibly missing or of the wrong kind.
const loose = z.looseObject({
  brand: z.unknown().optional(),
  competitors: z.unknown().optional(),
  questions: z.unknown().optional(),
});

const str = (value: unknown): string | null => (typeof value === "string" ? value.replace(/\s+/g, " ").trim() : null);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(str).filter((s): s is string => !!s) : []);
const record = (value: unknown): Record<string, unknown> => (value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

/** Distinct by lower case, first spelling kept. */
function distinct(list: string[]): string[] {
  const seen = new Set<string>();
  return list.filter((item) => {
    const key = item.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function domains(value: unknown): string[] {
  return distinct(strings(value).flatMap((d) => {
    const parsed = domainSchema.safeParse(d);
    return parsed.success ? [registrableDomainOf(parsed.data) ?? parsed.data] : [];
  })).slice(0, 20);
}

/** An entity (brand or competitor) as the brand form accepts it, or null. */
function entity(value: unknown): { name: string; aliases: string[]; domains: string[] } | null {
  const raw = typeof value === "string" ? { name: value } : record(value);
  const name = str(raw.name);
  if (!name) return null;
  const aliases = distinct(strings(raw.aliases).filter((a) => a.length <= 100 && a.toLowerCase() !== name.toLowerCase())).slice(0, 20);
  const parsed = competitorInputSchema.safeParse({ name, aliases, domains: domains(raw.domains) });
  return parsed.success ? { name: parsed.data.name, aliases: parsed.data.aliases, domains: parsed.data.domains } : null;
}

function question(value: unknown): { text: string; tags: string[] } | null {
  const raw = typeof value === "string" ? { text: value } : record(value);
  const text = str(raw.text ?? raw.question);
  const tags = [...strings(raw.tags), ...(str(raw.tag) ? [str(raw.tag)!] : [])];
  const validTags = tagsSchema.safeParse(tags.map((t) => t.toLowerCase()).slice(0, 10));
  const parsed = promptInputSchema.safeParse({ text, tags: validTags.success ? validTags.data : [] });
  return parsed.success ? { text: parsed.data.text, tags: parsed.data.tags } : null;
}

/**
 * The items of a list the model sent that read as valid (`read` returns null for the others),
 * each once: later ones whose key matches an earlier one, or one of `taken`, case-insensitively,
 * are dropped. Anything that is not a list gives none.
 */
function usable<T>(list: unknown, read: (item: unknown) => T | null, key: (item: T) => string, taken: string[] = []): T[] {
  const seen = new Set(taken.map((k) => k.toLowerCase()));
  const result: T[] = [];
  for (const item of Array.isArray(list) ? list.map(read) : []) {
    if (!item || seen.has(key(item).toLowerCase())) continue;
    seen.add(key(item).toLowerCase());
    result.push(item);
  }
  return result;
}

/**
 * The proposal in a model's answer. The brand falls back to the website's name and domain when
 * the answer has none; questions must be at least MIN_QUESTIONS after cleaning.
 */
export function parseProposal(answer: string, website: { domain: string }): SetupProposal {
  const candidates = jsonCandidates(answer);
  if (!candidates.length) throw new ProposalError("The answer held no JSON object, so there was nothing to suggest. Try again or pick another connection.");
  const data = loose.parse(candidates[0]);

  const fallbackName = brandNameOf(website.domain);
  const brand = entity(data.brand) ?? { name: fallbackName, aliases: [], domains: [] };
  if (!brand.domains.includes(website.domain)) brand.domains = [website.domain, ...brand.domains].slice(0, 20);

  const competitors = usable(data.competitors, entity, (c) => c.name, [brand.name]).slice(0, MAX_COMPETITORS);
  const questions = usable(data.questions, question, (q) => q.text).slice(0, MAX_QUESTIONS);
  if (questions.length < MIN_QUESTIONS) {
    throw new ProposalError(
      `The answer had ${questions.length} usable question${questions.length === 1 ? "" : "s"}; at least ${MIN_QUESTIONS} are needed. Try again or pick another connection.`,
    );
  }
  return { brand, competitors, questions };
}

const ACRONYMS = new Set(["ai", "crm", "erp", "hr", "io", "it", "seo", "saas", "api", "b2b", "cms"]);

/** "acme-crm.co.uk" -> "Acme CRM": the domain's label in words. */
export function brandNameOf(domain: string): string {
  const label = domain.split(".")[0] ?? domain;
  const words = label.split(/[-_]+/).filter(Boolean);
  const name = words.map((w) => (ACRONYMS.has(w) ? w.toUpperCase() : w.charAt(0).toUpperCase() + w.slice(1))).join(" ");
  return name || domain;
}
