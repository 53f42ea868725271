import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { REDACTED, redactSecrets } from "./redact";

// Next's own formatter of server-action arguments, as `next dev` prints them (server/dev/log-requests.js).
const { formatArgs } = createRequire(import.meta.url)("next/dist/server/dev/server-action-logger.js") as { formatArgs: (args: unknown[]) => string };
const nextLine = (name: string, args: unknown[]) => `  └─ ƒ ${name}(${formatArgs(args)}) in 85ms lib/actions/auth.ts`;

const SECRET_FIELDS = ["password", "newPassword", "currentPassword", "passphrase", "secret", "clientSecret", "token", "inviteToken", "apiKey", "api_key", "privateKey", "accessKey", "credentials", "authorization", "cookie", "BEACON_AUTH_SECRET"];

describe("redactSecrets", () => {
  it("hides the password of a sign-in as next dev prints it, and keeps the rest", () => {
    const line = redactSecrets(nextLine("signInAction", [{ email: "ada@example.com", password: "hunter2 is my \"password\"" }]));
    expect(line).toBe(`  └─ ƒ signInAction({"email":"ada@example.com","password":"${REDACTED}"}) in 85ms lib/actions/auth.ts`);
  });

  it("hides a secret-named field of any action, at any depth Next prints, whatever the value", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SECRET_FIELDS),
        fc.string({ minLength: 1 }),
        fc.dictionary(fc.constantFrom("email", "name", "workspaceId", "model"), fc.string()),
        fc.boolean(),
        (field, secret, others, nested) => {
          const value = `S3cr3t:${secret}`;
          const input = nested ? { data: { [field]: value } } : { ...others, [field]: value };
          const line = redactSecrets(nextLine("someAction", [input]));
          expect(line).not.toContain(JSON.stringify(value).slice(1, -1));
          // Next prints at most 3 fields of an object; a field it leaves out needs no redaction.
          if (line.includes(`"${field}"`)) expect(line).toContain(`"${field}":"${REDACTED}"`);
        },
      ),
    );
  });

  it("hides secrets inside JSON that was itself put in a string, in name=value pairs and in headers", () => {
    expect(redactSecrets(JSON.stringify({ body: JSON.stringify({ email: "a@b.c", password: "p\"w" }) }))).toBe(
      JSON.stringify({ body: JSON.stringify({ email: "a@b.c", password: REDACTED }) }),
    );
    expect(redactSecrets("GET /reset?token=abc123&email=a%40b.c")).toBe(`GET /reset?token=${REDACTED}&email=a%40b.c`);
    expect(redactSecrets("BEACON_AUTH_SECRET=0123456789abcdef DATABASE_URL=postgres://x")).toBe(`BEACON_AUTH_SECRET=${REDACTED} DATABASE_URL=postgres://x`);
    expect(redactSecrets("authorization: Bearer bk_live_123")).toBe(`authorization: ${REDACTED}`);
  });

  it("leaves lines without secrets as they are", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom("email", "name", "workspaceId", "model", "maxOutput"), fc.string()), (input) => {
        const line = nextLine("updateAction", [input]);
        expect(redactSecrets(line)).toBe(line);
      }),
    );
  });
});
