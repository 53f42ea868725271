import "server-only";
import fs from "node:fs";
import path from "node:path";
import { newPasswordSchema } from "@/lib/auth/account-fields";

// Read from the repository like the migrations (lib/db/migrate.ts): the web server, the worker
// and the tests all run from its root.
const LIST = path.resolve(process.cwd(), "lib", "auth", "common-passwords.txt");

let common: Set<string> | undefined;

function commonPasswords(): Set<string> {
  common ??= new Set(
    fs
      .readFileSync(LIST, "utf8")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith("#")),
  );
  return common;
}

/** True when `password` is on the list of common passwords (case does not matter). */
export const isCommonPassword = (password: string) => commonPasswords().has(password.toLowerCase());

/**
 * Why `password` may not be chosen (length, control characters, a common password), or null.
 * Every path that sets a password asks this (lib/auth/hooks.ts).
 */
export function newPasswordProblem(password: unknown): string | null {
  const parsed = newPasswordSchema.safeParse(password);
  if (!parsed.success) return parsed.error.issues[0]?.message ?? "Choose another password";
  if (isCommonPassword(parsed.data)) return "This password is too common: it is among the first that attackers try. Choose another one.";
  return null;
}
