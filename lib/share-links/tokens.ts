import "server-only";
import { createHash, randomBytes } from "node:crypto";

// A share token is 32 random bytes (256 bits) in base64url: unguessable, so the link needs no
// account and no rate limit to stay private. Only its SHA-256 is stored, so a database leak
// reveals no working link. Lookup is by the hash (a unique index): the secret itself is never
// compared, so there is no comparison whose timing could leak it.
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const newShareToken = () => randomBytes(32).toString("base64url");

export const hashShareToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** False for anything that cannot be a token, so such requests never reach the database. */
export const isShareTokenShaped = (token: string) => TOKEN.test(token);
