// Names an answer presents as options that the workspace does not track yet: the raw material of
// competitor discovery (lib/alerts/discovery.ts). Precision over recall: an alert that says "a new
// brand is named in 40 % of answers" must not be about "Pricing" or "Ease of use", so only names
// that the answer sets out structurally are taken, where assistants put the options they list:
//   1. **Attio**: ...   - **Folk CRM** — ...   - [Close](https://close.com): ...   * Zoho CRM: ...
//   | **Attio** | ... | (first column of a table)    ### Attio
// A name in running prose ("... or try Attio") is not taken: telling it from any capitalised word
// would take a dictionary or a model. What is taken is then cleaned (markdown, "(free plan)"
// asides, trailing punctuation) and dropped when it is a tracked name in any of its forms (the
// analysis' own matcher, so «Люмена» is the tracked «Люмен»), a generic label ("Pros", «Минусы»,
// "Fazit", "Option 2"), longer than five words (a sentence), not written as a name (a word without
// a capital letter or digit: "Ease of use"), a number or a URL. Pure and linear in the answer's
// length (one pass over its lines), like the rest of lib/analysis.
import { ANALYSIS_MAX_CHARS, type TrackedEntity } from "@/lib/analysis/tracked";
import { GENERIC_LABELS, NON_NAME_OPENERS, TABLE_NAME_COLUMNS, TABLE_ATTRIBUTE_COLUMNS } from "@/lib/analysis/candidate-words";
import { inlineText } from "@/lib/analysis/inline";
import { answerLanguage, type AnalysisLanguage } from "@/lib/analysis/language";
import { analyzeMentions } from "@/lib/analysis/mentions";

/** At most this many candidates per answer: a list of 200 "names" is not an answer about options. */
export const MAX_CANDIDATES_PER_ANSWER = 30;
const MAX_WORDS = 5;
const MAX_NAME_CHARS = 60;

/** The counting key of a name: case- and accent-folded, spaces collapsed ("Folk CRM" = "folk  crm"). */
export function candidateKey(name: string): string {
  return name.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();
}

/** The counting keys of the tracked names and aliases as written: a candidate with one of them is that name (its inflected forms go through the matcher). */
export function trackedKeys(tracked: TrackedEntity[]): string[] {
  return [...new Set(tracked.flatMap((t) => [t.name, ...(t.aliases ?? []), ...(t.caseSensitiveAliases ?? [])]).map(candidateKey))];
}

/** The text with markdown's own characters and all spacing taken out: what "appears in the answer" compares. */
export function withoutMarkup(text: string): string {
  return text.replace(/[*_`~[\]()\\#>|\s]+/g, "");
}

const SEPARATOR = /\s*(?::|\s[—–-]\s|\s[—–]|[—–]\s)/u;
const PLAIN_LEAD = /^([^:—–]{1,80}?)(?::|\s[—–-]\s|\s[—–]|[—–]\s)/u;
const LIST_MARKER = /^([ \t]*)(?:[-*+]|\d{1,3}[.)])[ \t]+/;
const HEADING = /^[ \t]{0,3}#{1,6}[ \t]+/;
const FENCE = /^[ \t]*(```|~~~)/;
const DELIMITER_ROW = /^[ \t|:-]+$/;
const URL_LIKE = /(?:^|\s)(?:[a-z][a-z0-9+.-]*:\/\/|www\.)|^\/|@/i;
const LETTER = /\p{L}/u;
const NAME_WORD = /[\p{Lu}\p{N}]/u;
const NUMBERED_LABEL = /^(?:option|step|tip|variant|choice|alternative|pick|вариант|шаг|совет|способ|альтернатива|schritt|tipp|möglichkeit|variante)\s*[#№]?\s*(?:\d+|\p{L})$/u;
const CONNECTORS = new Set(["&", "+", "and", "of", "for", "by", "the", "de", "und", "für", "и", "для", "x", "-", "/"]);

/** The lead of a list item or cell written as markup: "**Attio**", "__Attio__", "*Attio*", "[Attio](...)". */
function markupLead(content: string): { lead: string; rest: string } | null {
  const emphasis = /^(\*\*|__|\*|_)(?=\S)/.exec(content);
  if (emphasis) {
    const marker = emphasis[1]!;
    const end = content.indexOf(marker, marker.length);
    if (end <= marker.length) return null;
    return { lead: content.slice(marker.length, end), rest: content.slice(end + marker.length) };
  }
  if (content[0] === "[") {
    const close = content.indexOf("](");
    const end = close > 0 ? content.indexOf(")", close) : -1;
    if (close <= 1 || end < 0 || content.slice(1, close).includes("[")) return null;
    return { lead: content.slice(1, close), rest: content.slice(end + 1) };
  }
  return null;
}

/** The name a list item opens with, or null when it opens with something else. */
function listItemLead(content: string): string | null {
  const marked = markupLead(content);
  if (marked) {
    const lead = marked.lead.trim();
    const rest = marked.rest.replace(/^\s*\[\d+\]/, "").trimStart();
    // "**Attio**: ...", "**Attio:** ...", "**Attio** (free plan) — ...", "**Attio**" alone.
    if (/[:：]$/.test(lead) || rest === "" || /^[:：—–(,-]/.test(rest)) return lead;
    return null;
  }
  const plain = PLAIN_LEAD.exec(content);
  if (plain) return plain[1]!;
  // "- Attio" alone: a short line of capitalised words with no sentence in it.
  const whole = content.trim();
  return whole.split(/\s+/).length <= 3 && !/[.,;!?]$/.test(whole) ? whole : null;
}

/** "1. Attio (free plan):" -> "Attio". */
function cleaned(raw: string): string {
  let name = inlineText(raw).replace(/\s+/g, " ").trim();
  name = name.replace(/^(?:#?\d{1,3}[.):]?\s+|[^\p{L}\p{N}"'«„“]+)/u, "");
  for (let previous = ""; previous !== name; ) {
    previous = name;
    name = name
      .replace(/\s*(?:\([^()]*\)|\[[^[\]]*\])\s*$/u, "")
      .replace(/[\s:：.,;!?—–\-*_]+$/u, "")
      .replace(/^["'«„“](.*)["'»“”]$/u, "$1")
      .trim();
  }
  const separator = SEPARATOR.exec(name);
  return separator && separator.index > 0 ? name.slice(0, separator.index).trim() : name;
}

/** Written as a name: a few words, each with a capital or a digit (connectors aside), no sentence, URL or number. */
function nameLike(name: string): boolean {
  if (name.length < 2 || name.length > MAX_NAME_CHARS || !LETTER.test(name) || URL_LIKE.test(name)) return false;
  if (/[?!;]|\.\s/.test(name)) return false;
  const words = name.split(" ");
  if (words.length > MAX_WORDS || !NAME_WORD.test(words[0]!)) return false;
  if (!words.every((w) => NAME_WORD.test(w) || CONNECTORS.has(w.toLowerCase()))) return false;
  const key = candidateKey(name);
  if (GENERIC_LABELS.has(key) || NON_NAME_OPENERS.has(key.split(" ")[0]!)) return false;
  // "Option 2", "Шаг 3", "Tipp A": numbered labels. "$10 USD", "24/7 Support": amounts.
  return !NUMBERED_LABEL.test(key) && !/^[\d.,$€£%/+-]+$/u.test(words[0]!);
}

/** Leads from the answer's structure, in reading order, with the line each came from. */
function structuralLeads(answer: string): { lead: string; line: string }[] {
  const leads: { lead: string; line: string }[] = [];
  const lines = answer.split(/\r\n|\r|\n/);
  let fenced = false;
  // Items indented under an item that named something are its attributes ("- **Pricing:** ...").
  let namedItemIndent = -1;
  let table: "names" | "attributes" | "other" | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/^(?:[ \t]*>)+/, "");
    if (FENCE.test(line)) fenced = !fenced;
    if (fenced || /^\s*$/.test(line)) {
      if (!fenced) table = null;
      continue;
    }
    if (table && line.includes("|")) {
      const cell = line.trim().replace(/^\|/, "").split(/(?<!\\)\|/)[0]!.trim();
      const marked = markupLead(cell);
      if (table !== "attributes" && (marked ? marked.rest.trim() === "" : table === "names")) leads.push({ lead: marked?.lead ?? cell, line });
      continue;
    }
    table = null;
    const next = lines[i + 1] ?? "";
    if (line.includes("|") && next.includes("|") && next.includes("-") && DELIMITER_ROW.test(next.trim())) {
      const first = candidateKey(inlineText(line.trim().replace(/^\|/, "").split("|")[0] ?? ""));
      table = TABLE_ATTRIBUTE_COLUMNS.some((w) => first.includes(w)) ? "attributes" : TABLE_NAME_COLUMNS.some((w) => first.includes(w)) ? "names" : "other";
      i++;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      namedItemIndent = -1;
      const text = line.slice(heading[0].length).replace(/[ \t#]+$/, "").replace(/^\s*(?:#?\d{1,3}[.)]|\d{1,3}\s*[-–—])\s+/, "");
      const marked = markupLead(text.trim());
      leads.push({ lead: marked && !marked.rest.trim() ? marked.lead : text, line });
      continue;
    }
    const item = LIST_MARKER.exec(line);
    if (!item) continue;
    const indent = item[1]!.replace(/\t/g, "    ").length;
    if (namedItemIndent >= 0 && indent > namedItemIndent) continue;
    namedItemIndent = -1;
    const lead = listItemLead(line.slice(item[0].length));
    if (lead !== null) {
      leads.push({ lead, line });
      namedItemIndent = indent;
    }
  }
  return leads;
}

/**
 * The tracked entity (its name) that `name` is already a spelling of, in any language's forms:
 * what "track it" refuses, by the same test that keeps tracked names out of the candidates.
 */
export function trackedAs(name: string, tracked: TrackedEntity[]): string | null {
  const entities = tracked.map((t) => ({ ...t, kind: "competitor" as const }));
  for (const language of ["en", "de"] as const) {
    const hit = analyzeMentions(name, entities, language).find((e) => e.mentioned);
    if (hit) return hit.name;
  }
  return null;
}

/**
 * The distinct names of products or companies the answer presents as options and that are not
 * tracked (neither `tracked`'s names nor aliases, in any inflected form), in reading order.
 * `language`: the prompt's (BCP 47) when set; else the answer's is detected.
 */
export function brandCandidates(answerText: string, tracked: TrackedEntity[], language?: string | null): string[] {
  const answer = answerText.slice(0, ANALYSIS_MAX_CHARS);
  // Detected only when a lead has to go through the matcher.
  let analysisLanguage: AnalysisLanguage | undefined;
  const entities = tracked.map((t) => ({ ...t, kind: "competitor" as const }));
  // Most leads of a list are the tracked names as written: known without running the matcher.
  const seen = new Set(trackedKeys(tracked));
  const names: string[] = [];
  for (const { lead, line } of structuralLeads(answer)) {
    if (names.length >= MAX_CANDIDATES_PER_ANSWER) break;
    // Far longer than any name: not one (and cleaning it would cost more than it is worth).
    if (lead.length > 4 * MAX_NAME_CHARS) continue;
    const name = cleaned(lead);
    const key = candidateKey(name);
    if (seen.has(key) || !nameLike(name)) continue;
    seen.add(key);
    // Every candidate is text of the answer: cleaning only ever removes.
    if (!withoutMarkup(line).includes(withoutMarkup(name))) continue;
    analysisLanguage ??= answerLanguage(answer, language);
    if (entities.length && analyzeMentions(name, entities, analysisLanguage).some((e) => e.mentioned)) continue;
    names.push(name);
  }
  return names;
}
