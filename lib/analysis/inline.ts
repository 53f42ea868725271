// Inline markdown -> the text a reader sees: links and images become their text, emphasis,
// strikethrough and code markers go, backslash escapes are resolved. One left-to-right pass over
// the text after one pass that pairs brackets and parentheses, so the time is linear in the
// length whatever the input (an answer is untrusted text; see lib/analysis/analyze.ts).

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const WORD = /[\p{L}\p{N}]/u;
const isWord = (ch: string | undefined) => ch !== undefined && WORD.test(ch);

/** For each "[" and "(", the index of its matching "]" or ")" (-1 when it has none). */
function pairs(text: string): Int32Array {
  const close = new Int32Array(text.length).fill(-1);
  const brackets: number[] = [];
  const parens: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\\") i++; // an escaped character pairs with nothing
    else if (ch === "[") brackets.push(i);
    else if (ch === "(") parens.push(i);
    else if (ch === "]" && brackets.length) close[brackets.pop()!] = i;
    else if (ch === ")" && parens.length) close[parens.pop()!] = i;
  }
  return close;
}

/**
 * Where the link or image that opens at `open` ("[") ends: after its "(destination)". -1 when
 * the brackets are plain text, like a "[1]" citation (reference links "[text][1]" stay as
 * written too: whether "[1]" is defined would take another pass, and brackets do not hide a name).
 */
function linkEnd(text: string, close: Int32Array, open: number): number {
  const textEnd = close[open]!;
  const end = textEnd >= 0 && text[textEnd + 1] === "(" ? close[textEnd + 1]! : -1;
  return end < 0 ? -1 : end + 1;
}

export function inlineText(text: string): string {
  const close = pairs(text);
  // Where a link's text ends, the index to jump to (past its destination).
  const jumps = new Map<number, number>();
  const parts: string[] = [];
  let runStart = 0;
  const skip = (from: number, to: number) => {
    parts.push(text.slice(runStart, from));
    runStart = to;
  };
  for (let i = 0; i < text.length; ) {
    const ch = text[i]!;
    const jump = jumps.get(i);
    if (jump !== undefined) {
      skip(i, jump);
      i = jump;
    } else if (ch === "\\" && ASCII_PUNCTUATION.test(text[i + 1] ?? "")) {
      skip(i, i + 1); // keep the escaped character itself
      i += 2;
    } else if (ch === "[" || (ch === "!" && text[i + 1] === "[")) {
      const open = ch === "!" ? i + 1 : i;
      const end = linkEnd(text, close, open);
      if (end >= 0) {
        jumps.set(close[open]!, end);
        skip(i, open + 1);
      }
      i = open + 1;
    } else if (ch === "`") {
      skip(i, i + 1);
      i++;
    } else if (ch === "*" || ch === "_" || ch === "~") {
      // A run of emphasis markers goes, unless it sits inside a word ("E*TRADE", "snake_case").
      let end = i;
      while (text[end] === ch) end++;
      if (!(isWord(text[i - 1]) && isWord(text[end]))) skip(i, end);
      i = end;
    } else i++;
  }
  parts.push(text.slice(runStart));
  return parts.join("");
}
