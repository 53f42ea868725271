// The fields of an account as people type them: used by the sign-up and sign-in forms (instant
// messages), the server actions, and the better-auth hooks that guard its HTTP endpoints
// (lib/auth/hooks.ts), so every path refuses the same things with the same words. Pure.
import { z } from "zod";
import { hasControlCharacters, text } from "@/lib/validation/text";

export const NAME_MAX = 100;
// RFC 5321: a path holds at most 254 characters of address.
export const EMAIL_MAX = 254;
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 128;

/** What the sign-up form says under the password field (the strength estimate is server-side, lib/auth/password-policy.ts). */
export const PASSWORD_RULE = `At least ${PASSWORD_MIN} characters and hard to guess: a few uncommon words work well.`;

export const personNameSchema = text({ max: NAME_MAX, min: 1, label: "Your name" });

export const emailSchema = text({ max: EMAIL_MAX, min: 1, label: "The email address" })
  .transform((value) => value.toLowerCase())
  .pipe(z.email("Enter a valid email address"));

/** A password being chosen (sign-up, change, reset). Not trimmed: spaces are part of it. */
export const newPasswordSchema = z
  .string({ error: "Enter a password" })
  .min(PASSWORD_MIN, `Use at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Use at most ${PASSWORD_MAX} characters`)
  .refine((value) => !hasControlCharacters(value), "The password contains a control character or a line break; remove it");

/** A password being tried: only bounded, so a megabyte of text is not hashed. */
export const currentPasswordSchema = z
  .string({ error: "Enter your password" })
  .min(1, "Enter your password")
  .max(PASSWORD_MAX, "That email and password do not match an account.");
