// Markdown answer -> plain sentences, in reading order. Lists, table rows, headings and
// paragraphs become separate segments (a list item or a table row talks about one thing), and
// markdown syntax (emphasis, links, code) is reduced to its text. Parsing is marked's lexer;
// sentence splitting is a small rule set below, since the sentence libraries available pull in
// HTML sanitisers and we only need to split plain prose.
import { marked, type Token, type Tokens } from "marked";

function inlineText(tokens: Token[] | undefined, fallback = ""): string {
  if (!tokens) return fallback;
  return tokens
    .map((t) => {
      if (t.type === "link") return inlineText((t as Tokens.Link).tokens, (t as Tokens.Link).text);
      if (t.type === "image") return (t as Tokens.Image).text;
      if (t.type === "br") return " ";
      if ("tokens" in t && t.tokens) return inlineText(t.tokens as Token[]);
      if (t.type === "escape" || t.type === "text" || t.type === "codespan" || t.type === "html") return (t as { text: string }).text;
      return "raw" in t ? String(t.raw) : "";
    })
    .join("");
}

function collect(tokens: Token[], out: string[]) {
  for (const token of tokens) {
    switch (token.type) {
      case "paragraph":
      case "heading":
        out.push(inlineText((token as Tokens.Paragraph).tokens, (token as Tokens.Paragraph).text));
        break;
      case "text":
        // Text inside list items may carry its own block tokens.
        out.push(inlineText((token as Tokens.Text).tokens, (token as Tokens.Text).text));
        break;
      case "list":
        for (const item of (token as Tokens.List).items) collect(item.tokens, out);
        break;
      case "blockquote":
        collect((token as Tokens.Blockquote).tokens, out);
        break;
      case "table": {
        const table = token as Tokens.Table;
        for (const row of table.rows) out.push(row.map((cell) => inlineText(cell.tokens, cell.text)).join(" | "));
        break;
      }
      case "code":
        break; // code blocks do not talk about brands
      default:
        if ("tokens" in token && Array.isArray(token.tokens)) collect(token.tokens as Token[], out);
    }
  }
}

/** Text segments of the answer in order: one per paragraph, heading, list item or table row. */
export function segmentsOf(markdown: string): string[] {
  const out: string[] = [];
  collect(marked.lexer(markdown, { gfm: true }), out);
  return out.map((s) => s.replace(/\s+/g, " ").trim()).filter(Boolean);
}

const ABBREVIATIONS = /(?:\b(?:e\.g|i\.e|vs|etc|inc|ltd|co|corp|mr|mrs|ms|dr|st|no|approx|incl)|\b[A-Z])\.$/i;

/** Splits prose into sentences at . ! ? (and their CJK forms) followed by a space or the end. */
export function sentencesOf(segment: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  const re = /[.!?。！？]+["')\]]*(\s+|$)/g;
  for (let match = re.exec(segment); match; match = re.exec(segment)) {
    const end = match.index + match[0].length;
    const candidate = segment.slice(start, match.index + 1);
    if (/[.]$/.test(candidate) && ABBREVIATIONS.test(candidate)) continue;
    sentences.push(segment.slice(start, end).trim());
    start = end;
  }
  if (start < segment.length) sentences.push(segment.slice(start).trim());
  return sentences.filter(Boolean);
}

export function sentencesOfMarkdown(markdown: string): string[] {
  return segmentsOf(markdown).flatMap(sentencesOf);
}
