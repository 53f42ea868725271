// One rule for every piece of text a person or a client sends (REST bodies and query strings,
// server actions, sign-up): no NUL and no other control characters (PostgreSQL cannot store NUL,
// and the others are never meant), a length limit, and a message that says what is wrong. Pure,
// so forms can use it too.
import { z } from "zod";

// C0 controls and DEL; tab, line feed and carriage return are allowed in multi-line text only.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/u;
const CONTROL_OR_NEWLINE = /[\u0000-\u001F\u007F]/u;

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
    .transform((value) => value.trim())
    .pipe(z.string().max(options.max, `${label} can have at most ${options.max} characters`));
  if (options.min) {
    schema = schema.pipe(z.string().min(options.min, options.min === 1 ? `${label} is required` : `${label} needs at least ${options.min} characters`)) as unknown as typeof schema;
  }
  return schema;
}

/** True when `value` holds a character `text()` refuses (for values checked outside zod, e.g. query strings). */
export const hasControlCharacters = (value: string, multiline = false) => (multiline ? CONTROL : CONTROL_OR_NEWLINE).test(value);
