// The secret that signs sessions. An operator may set BEACON_AUTH_SECRET; otherwise the first
// start creates one in the data folder so that sessions survive restarts without any setup.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env } from "@/lib/config/env";

const MIN_LENGTH = 32;

export function authSecretPath(): string {
  return path.resolve(env().BEACON_DATA_DIR, "auth-secret");
}

function readSecret(file: string): string {
  const secret = fs.readFileSync(file, "utf8").trim();
  if (secret.length < MIN_LENGTH) {
    throw new Error(`${file} holds a secret shorter than ${MIN_LENGTH} characters; delete it to create a new one.`);
  }
  return secret;
}

/** BEACON_AUTH_SECRET, or the secret kept in `<BEACON_DATA_DIR>/auth-secret` (created if missing). */
export function ensureAuthSecret(): string {
  const fromEnv = env().BEACON_AUTH_SECRET;
  if (fromEnv) return fromEnv;

  const file = authSecretPath();
  if (fs.existsSync(file)) return readSecret(file);

  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    // "wx": when two processes start at once, exactly one writes and both read the same secret.
    fs.writeFileSync(file, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return readSecret(file);
}
