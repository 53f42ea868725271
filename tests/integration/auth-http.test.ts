// better-auth's own HTTP endpoints (/api/auth/*), called through the route handler with a real
// Request as Next.js calls it: they refuse what the forms refuse (long or control-character
// names, emails and images, weak new passwords) with a 400 and a field, store nothing, and
// sign-up answers the same for an address that has an account as for a new one.
import { describe, expect, it, vi } from "vitest";
import { PEER_ADDRESS_HEADER } from "../support/request-context";
import { countRows, PASSWORD, signUp, uniqueEmail } from "../support/workspace-fixtures";
import { GET, POST } from "@/app/api/auth/[...all]/route";
import { db } from "@/lib/db/prisma";

vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

type Answer = { status: number; body: { message?: string; code?: string; field?: string; token?: string | null; user?: Record<string, unknown> }; cookies: string[] };

let clients = 0;

async function call(method: "GET" | "POST", path: string, options: { json?: unknown; cookie?: string } = {}): Promise<Answer> {
  clients += 1;
  const headers: Record<string, string> = { origin: "http://localhost:3000", [PEER_ADDRESS_HEADER]: `192.0.2.${clients % 250}` };
  if (options.json !== undefined) headers["content-type"] = "application/json";
  if (options.cookie) headers.cookie = options.cookie;
  const request = new Request(`http://localhost:3000/api/auth${path}`, { method, headers, body: options.json === undefined ? undefined : JSON.stringify(options.json) });
  const response = await (method === "GET" ? GET : POST)(request);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {}, cookies: response.headers.getSetCookie() };
}

const signUpOverHttp = (body: Record<string, unknown>) => call("POST", "/sign-up/email", { json: { name: "Http Person", email: uniqueEmail("http"), password: PASSWORD, ...body } });

async function sessionCookie(email: string, password = PASSWORD): Promise<string> {
  const answer = await call("POST", "/sign-in/email", { json: { email, password } });
  expect(answer.status).toBe(200);
  return answer.cookies.map((c) => c.split(";")[0]).join("; ");
}

describe("POST /api/auth/sign-up/email", () => {
  it.each<[string, Record<string, unknown>, string, RegExp]>([
    ["a 500,000-character name", { name: "n".repeat(500_000) }, "name", /at most 100 characters/],
    ["a 101-character name", { name: "n".repeat(101) }, "name", /at most 100 characters/],
    ["a name with a NUL", { name: "Ada\u0000Lovelace" }, "name", /control character/],
    ["a name with an escape sequence", { name: "\u001b[31mred" }, "name", /control character/],
    ["an empty name", { name: "  " }, "name", /required/],
    ["an email with a NUL", { email: "ada\u0000@example.com" }, "email", /control character/],
    ["a 300-character email", { email: `${"a".repeat(288)}@example.com` }, "email", /at most 254/],
    ["a 9-character password", { password: "abcdefghi" }, "password", /at least 10/],
    ["a 129-character password", { password: "p".repeat(129) }, "password", /at most 128/],
    ["a common password", { password: "password123" }, "password", /too easy to guess.*commonly used/],
    ["a repeated character", { password: "aaaaaaaaaa" }, "password", /too easy to guess.*Repeated characters/],
    ["a password with a NUL", { password: "long enough\u0000pass" }, "password", /control character/],
    ["a 100,000-character image URL", { image: `https://example.com/${"i".repeat(100_000)}` }, "image", /at most 2048/],
    ["a name that is not text", { name: { first: "Ada" } }, "name", /must be text/],
  ])("refuses %s with 400, a message on the field, and stores nothing", async (_, change, field, message) => {
    const before = await countRows();
    const answer = await signUpOverHttp(change);
    expect(answer.status).toBe(400);
    expect(answer.body.field).toBe(field);
    expect(answer.body.message).toMatch(message);
    expect(answer.cookies).toEqual([]);
    expect(await countRows()).toEqual(before);
  });

  it("creates an account with its own workspace (BEACON_SIGNUP=open), trimmed, without signing in", async () => {
    const email = uniqueEmail("curl");
    const answer = await signUpOverHttp({ name: "  Carla Curl  ", email: email.toUpperCase() });
    expect(answer.status).toBe(200);
    expect(answer.body.token).toBeNull();
    expect(answer.cookies.filter((c) => c.includes("session_token="))).toEqual([]);
    const user = await db().user.findUniqueOrThrow({ where: { email }, include: { memberships: { include: { workspace: true } } } });
    expect(user.name).toBe("Carla Curl");
    expect(user.memberships.map((m) => [m.role, m.workspace.name])).toEqual([["owner", "Carla's workspace"]]);
  });

  it("answers an address that has an account like a new one", async () => {
    const existing = await signUp({ name: "Ernst Existing" });
    const before = await countRows();
    const taken = await signUpOverHttp({ email: existing.email, password: "another password" });
    const fresh = await signUpOverHttp({ password: "another password" });
    expect(taken.status).toBe(fresh.status);
    expect(Object.keys(taken.body).sort()).toEqual(Object.keys(fresh.body).sort());
    expect(Object.keys(taken.body.user ?? {}).sort()).toEqual(Object.keys(fresh.body.user ?? {}).sort());
    expect(taken.body.token).toBeNull();
    expect(taken.cookies).toEqual(fresh.cookies);
    expect((await countRows()).users).toBe(before.users + 1);
  });
});

describe("other endpoints that take names, emails and passwords", () => {
  it("sign-in refuses a megabyte password without hashing it, and a NUL in the email", async () => {
    const person = await signUp({ name: "Sid Signin" });
    const long = await call("POST", "/sign-in/email", { json: { email: person.email, password: "p".repeat(1_000_000) } });
    expect(long.status).toBe(400);
    expect(long.body.field).toBe("password");
    const nul = await call("POST", "/sign-in/email", { json: { email: `${person.email}\u0000`, password: PASSWORD } });
    expect(nul.status).toBe(400);
    expect(nul.body).toMatchObject({ field: "email", message: expect.stringMatching(/control character/) });
  });

  it("update-user refuses a long or NUL name and keeps the stored one", async () => {
    const person = await signUp({ name: "Uma Update" });
    const cookie = await sessionCookie(person.email);
    for (const name of ["u".repeat(500_000), "Uma\u0000"]) {
      const answer = await call("POST", "/update-user", { json: { name }, cookie });
      expect(answer.status).toBe(400);
      expect(answer.body.field).toBe("name");
    }
    expect((await db().user.findUniqueOrThrow({ where: { id: person.userId } })).name).toBe("Uma Update");
    expect((await call("POST", "/update-user", { json: { name: "Uma Renamed" }, cookie })).status).toBe(200);
    expect((await db().user.findUniqueOrThrow({ where: { id: person.userId } })).name).toBe("Uma Renamed");
  });

  it("change-password follows the password policy", async () => {
    const person = await signUp({ name: "Cody Change" });
    const cookie = await sessionCookie(person.email);
    for (const newPassword of ["qwertyuiop", "aaaaaaaaaa", "short", "x".repeat(129)]) {
      const answer = await call("POST", "/change-password", { json: { currentPassword: PASSWORD, newPassword }, cookie });
      expect(answer.status).toBe(400);
      expect(answer.body.field).toBe("newPassword");
    }
    const changed = await call("POST", "/change-password", { json: { currentPassword: PASSWORD, newPassword: "a much better passphrase" }, cookie });
    expect(changed.status).toBe(200);
    await sessionCookie(person.email, "a much better passphrase");
  });
});
