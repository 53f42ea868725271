// Markdown answer -> plain sentences, in reading order. Lists, table rows, headings and
// paragraphs become separate segments (a list item or a table row talks about one thing), and
// markdown syntax (emphasis, links, code) is reduced to its text.
//
// Answers are untrusted text, so this is a small line-based reader instead of a full markdown
// parser: every line is looked at once, nesting (quotes in lists in quotes...) is only counted,
// never recursed into, and the few regular expressions are anchored and linear. Time is linear
// in the length and nothing throws, whatever the input (marked, used before, took 1.4 s for
// 40,000 "!" and threw on 2,000 nested quotes). What it does not model: indented code blocks
// are read as text, HTML is kept as written, and a table's header row is skipped as before.
import { inlineText } from "@/lib/analysis/inline";

const isBlank = (line: string) => line.trim() === "";
const isSpace = (ch: string | undefined) => ch === " " || ch === "\t";
const isDigit = (ch: string | undefined) => ch !== undefined && ch >= "0" && ch <= "9";

/** Length of the list marker at `at` ("- ", "* ", "+ ", "1. ", "1) "), or 0. */
function listMarker(line: string, at: number): number {
  let end = at;
  if (line[at] === "-" || line[at] === "*" || line[at] === "+") end = at + 1;
  else {
    while (end - at < 9 && isDigit(line[end])) end++;
    if (end === at || (line[end] !== "." && line[end] !== ")")) return 0;
    end++;
  }
  return isSpace(line[end]) || end === line.length ? end - at : 0;
}

/** The line without its container markers: block quotes ("> ") and list items ("- ", "1. "). */
function stripContainers(line: string): { content: string; quotes: number; item: boolean } {
  let at = 0;
  let quotes = 0;
  let item = false;
  for (;;) {
    while (isSpace(line[at])) at++;
    if (line[at] === ">") {
      quotes++;
      at++;
      continue;
    }
    const marker = listMarker(line, at);
    if (!marker) break;
    item = true;
    at += marker;
  }
  return { content: line.slice(at), quotes, item };
}

/** A fence ("```" or "~~~", three or more) that opens or closes a code block, or null. */
function fenceOf(content: string): { char: string; length: number } | null {
  const char = content[0];
  if (char !== "`" && char !== "~") return null;
  let length = 0;
  while (content[length] === char) length++;
  return length >= 3 ? { char, length } : null;
}

const closesFence = (content: string, open: { char: string; length: number }) => {
  const fence = fenceOf(content);
  return fence !== null && fence.char === open.char && fence.length >= open.length && isBlank(content.slice(fence.length));
};

/** "# Title ##" -> "Title"; null when the line is not an ATX heading. */
function headingText(content: string): string | null {
  let level = 0;
  while (content[level] === "#") level++;
  if (level === 0 || level > 6 || !(isSpace(content[level]) || level === content.length)) return null;
  let end = content.length;
  while (end > level && isSpace(content[end - 1])) end--;
  let hashes = end;
  while (hashes > level && content[hashes - 1] === "#") hashes--;
  if (hashes < end && isSpace(content[hashes - 1])) end = hashes; // a closing "##"
  return content.slice(level, end);
}

// A table's delimiter row ("| --- | :-: |"), a setext underline or thematic break ("===",
// "---", "***", "___"), a link reference definition ("[1]: https://...").
const DELIMITER_ROW = /^[ \t|:-]+$/;
const RULE = /^(?:[=\-*_][ \t]*)+$/;
const REFERENCE_DEFINITION = /^\[[^\]]+\]:/;

function tableRow(content: string): string {
  let row = content.trim();
  if (row.startsWith("|")) row = row.slice(1);
  if (row.endsWith("|") && !row.endsWith("\\|")) row = row.slice(0, -1);
  return row
    .split(/(?<!\\)\|/)
    .map((cell) => inlineText(cell).trim())
    .join(" | ");
}

const clean = (segment: string) => segment.replace(/\s+/g, " ").trim();

/** Text segments of the answer in order: one per paragraph, heading, list item or table row. */
export function segmentsOf(markdown: string): string[] {
  const lines = markdown.split(/\r\n|\r|\n/);
  const out: string[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) out.push(inlineText(paragraph.join("\n")));
    paragraph = [];
  };
  let fence: { char: string; length: number } | null = null;
  let inTable = false;
  let quotes = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = stripContainers(lines[i]!);
    const { content } = line;
    if (fence) {
      if (closesFence(content, fence)) fence = null;
      continue; // code does not talk about brands
    }
    if (inTable && !isBlank(content) && content.includes("|")) {
      out.push(tableRow(content));
      continue;
    }
    inTable = false;
    // A new list item, a deeper quote or a blank line ends the paragraph.
    if (line.item || line.quotes > quotes || isBlank(content)) flush();
    quotes = line.quotes;
    fence = fenceOf(content);
    const heading = fence ? null : headingText(content);
    if (fence || heading !== null || RULE.test(content)) {
      flush();
      if (heading) out.push(inlineText(heading));
      continue;
    }
    if (isBlank(content) || REFERENCE_DEFINITION.test(content)) continue;
    const next = content.includes("|") && i + 1 < lines.length ? stripContainers(lines[i + 1]!).content : "";
    if (next.includes("|") && next.includes("-") && DELIMITER_ROW.test(next)) {
      flush(); // the header row names the columns; the rows below are what is said
      inTable = true;
      i++;
      continue;
    }
    paragraph.push(content);
  }
  flush();
  return out.map(clean).filter(Boolean);
}

const TERMINAL = new Set([".", "!", "?", "。", "！", "？"]);
const CLOSING = new Set(['"', "'", ")", "]"]);
const ABBREVIATIONS = new Set(["vs", "etc", "inc", "ltd", "co", "corp", "mr", "mrs", "ms", "dr", "st", "no", "approx", "incl"]);
const WHITESPACE = /\s/;
const ASCII_LETTER = /[A-Za-z]/;
const ASCII_WORD = /\w/;

/** Whether the "." at `dot` ends an abbreviation or an initial ("e.g.", "vs.", "Inc.", "J."). */
function endsAbbreviation(text: string, dot: number): boolean {
  let start = dot;
  // The longest abbreviation has 6 letters: looking further back is never needed.
  while (start > 0 && dot - start <= 6 && ASCII_LETTER.test(text[start - 1]!)) start--;
  if (start === dot || (start > 0 && ASCII_WORD.test(text[start - 1]!))) return false;
  return dot - start === 1 || ABBREVIATIONS.has(text.slice(start, dot).toLowerCase());
}

/** Splits prose into sentences at . ! ? (and their CJK forms) followed by a space or the end. */
export function sentencesOf(segment: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  for (let i = 0; i < segment.length; ) {
    if (!TERMINAL.has(segment[i]!)) {
      i++;
      continue;
    }
    const run = i;
    while (i < segment.length && TERMINAL.has(segment[i]!)) i++;
    while (i < segment.length && CLOSING.has(segment[i]!)) i++;
    let end = i;
    while (end < segment.length && WHITESPACE.test(segment[end]!)) end++;
    if (end === i && end < segment.length) continue; // "Monday.com", "3.5": not an end
    i = end;
    if (segment[run] === "." && endsAbbreviation(segment, run)) continue;
    sentences.push(segment.slice(start, end).trim());
    start = end;
  }
  if (start < segment.length) sentences.push(segment.slice(start).trim());
  return sentences.filter(Boolean);
}

export function sentencesOfMarkdown(markdown: string): string[] {
  return segmentsOf(markdown).flatMap(sentencesOf);
}
