// One rule for every piece of text a person or a client sends (REST bodies and query strings,
// server actions, sign-up): no NUL and no other control characters (PostgreSQL cannot store NUL,
// and the others are never meant), a length limit, and a message that says what is wrong. Pure,
// so forms can use it too.
//
// One-line text (names of workspaces, people, brands, competitors, aliases, tags, channels,
// rules...) is also NFKC-normalised and may hold no invisible character: bidi controls reorder
// what is shown around them, and zero-width characters make two names that look the same differ
// (a second "Acme" competitor, a tag that never matches). Multi-line text (prompts) is kept as written.
import { z } from "zod";

// C0 controls and DEL; tab, line feed and carriage return are allowed in multi-line text only.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/u;
const CONTROL_OR_NEWLINE = /[\u0000-\u001F\u007F]/u;

// Bidi controls: Arabic letter mark, LRM/RLM, embeddings and overrides, isolates.
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
// Characters that show nothing: zero-width space, word joiner and invisible operators, byte order
// mark, soft hyphen, combining grapheme joiner, Mongolian vowel separator, Hangul fillers.
const INVISIBLE = /[\u00AD\u034F\u180E\u200B\u2060-\u2064\uFEFF\u115F\u1160\u3164\uFFA0]/u;
// Zero-width (non-)joiners are spelling in some scripts (Persian, Indic, ...) and build emoji
// (👩‍💻); elsewhere they only hide a difference.
const JOINING_LETTER = String.raw`[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}\p{Script=Myanmar}\p{Script=Khmer}\p{Script=Mongolian}]`;
const JOINER_IN_WORD = new RegExp(String.raw`(?<=${JOINING_LETTER}\p{M}*)[\u200C\u200D](?=${JOINING_LETTER})`, "gu");
const JOINER_IN_EMOJI = /(?<=[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F])\u200D(?=\p{Extended_Pictographic})/gu;
const JOINER = /[\u200C\u200D]/u;

/** The first invisible character of `value` that a one-line text may not hold, or null. */
export function invisibleCharacter(value: string): string | null {
  const found = value.match(BIDI) ?? value.match(INVISIBLE) ?? value.replace(JOINER_IN_WORD, "").replace(JOINER_IN_EMOJI, "").match(JOINER);
  return found?.[0] ?? null;
}

const codePoint = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

/** A one-line text as it is stored and compared: NFKC (full-width letters, ligatures and compatibility forms become ordinary ones). */
export const normaliseName = (value: string) => value.normalize("NFKC");

export type TextOptions = {
  /** At most this many characters (after trimming). */
  max: number;
  /** At least this many characters (after trimming); default 0. */
  min?: number;
  /** Tabs and line breaks allowed (prompts, answers); default false. */
  multiline?: boolean;
  /** What the field is called in messages, e.g. "A prompt"; default "This field". */
  label?: string;
};

/** A trimmed string without control characters, with length limits and readable messages. */
export function text(options: TextOptions) {
  const label = options.label ?? "This field";
  const forbidden = options.multiline ? CONTROL : CONTROL_OR_NEWLINE;
  let schema = z
    .string({ error: `${label} must be text` })
    .refine((value) => !forbidden.test(value), `${label} contains a control character${options.multiline ? "" : " or a line break"}; remove it`)
    .transform((value) => (options.multiline ? value : normaliseName(value)))
    .superRefine((value, ctx) => {
      const invisible = options.multiline ? null : invisibleCharacter(value);
      if (invisible) {
        ctx.addIssue({ code: "custom", message: `${label} contains an invisible character (${codePoint(invisible)}, a text-direction control or zero-width character); remove it` });
      }
    })
    .transform((value) => value.trim())
    .pipe(z.string().max(options.max, `${label} can have at most ${options.max} characters`));
  if (options.min) {
    schema = schema.pipe(z.string().min(options.min, options.min === 1 ? `${label} is required` : `${label} needs at least ${options.min} characters`)) as unknown as typeof schema;
  }
  return schema;
}

/** True when `value` holds a character `text()` refuses (for values checked outside zod, e.g. query strings). */
export const hasControlCharacters = (value: string, multiline = false) => (multiline ? CONTROL : CONTROL_OR_NEWLINE).test(value);
