// The sign-in and sign-up limiter (lib/auth/rate-limit.ts) through the real server actions and
// better-auth's HTTP endpoint: per account and client, per client address and per account, a
// browser that signed in before exempt from the last two, the CLI's unlock; in PostgreSQL, the right
// password refused while limited, X-Forwarded-For believed only from a trusted proxy (this file
// trusts 10.0.0.0/8). No action lets time pass: where the window must end, the counted attempts
// are aged in the database.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it, vi } from "vitest";
import { newBrowser, PEER_ADDRESS_HEADER, type Browser } from "../support/request-context";
import { ok, PASSWORD, refused, signUp, uniqueEmail, type ActionResult } from "../support/workspace-fixtures";
import { POST } from "@/app/api/auth/[...all]/route";
import { signInAction, signUpAction } from "@/lib/actions/auth";
import { AUTH_RATE_LIMITS } from "@/lib/auth/rate-limit";
import { db } from "@/lib/db/prisma";
import { cliNodeArgs } from "@/scripts/lib/worker-bundle";

vi.hoisted(() => {
  process.env.BEACON_TRUSTED_PROXIES = "10.0.0.0/8";
});
vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

const SIGN_IN = AUTH_RATE_LIMITS["sign-in"];
const SIGN_UP = AUTH_RATE_LIMITS["sign-up"];
const WRONG = "not the password at all";

const signIn = (browser: Browser, email: string, password: string) => browser.run(() => signInAction({ email, password }));

/** Refused by the limiter, with a message that says when to try again. */
function expectLimited(result: ActionResult | undefined, wait = /Try again in 1[45] minutes\./): void {
  const error = refused(result, "rate_limited");
  expect(error.message).toMatch(wait);
}

/** Refused as a wrong password (the attempt reached better-auth). */
const expectWrongPassword = (result: ActionResult | undefined) => expect(refused(result, "bad_request").message).toMatch(/do not match/);

const addressIn = (n: number) => `203.0.113.${n}`;

/** The operator CLI as a process, against this file's database. */
async function beacon(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [...(await cliNodeArgs()), ...args], {
      env: { ...process.env, NODE_ENV: "production", BEACON_TEST_CHEAP_PASSWORD_HASH: "" },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("failed sign-ins per account and client", () => {
  it("lock the account for that client after 5 in 15 minutes, the right password too, with when to try again; the owner elsewhere is not locked out", async () => {
    const person = await signUp({ name: "Paula Target" });
    const attacker = () => newBrowser(undefined, { address: addressIn(1) });
    for (let i = 0; i < SIGN_IN.client.max; i++) expectWrongPassword(await signIn(attacker(), person.email, WRONG));

    const browser = attacker();
    expectLimited(await signIn(browser, person.email, PASSWORD));
    expect(browser.cookies()).toEqual([]);
    // The owner, from another address, in a browser that never signed in before.
    ok(await signIn(newBrowser(undefined, { address: addressIn(2) }), person.email, PASSWORD));
    // ...which does not unlock the attacker's address.
    expectLimited(await signIn(attacker(), person.email, PASSWORD));

    // An address without an account is limited exactly the same way (nothing tells which accounts exist).
    const nobody = uniqueEmail("nobody");
    for (let i = 0; i < SIGN_IN.client.max; i++) expectWrongPassword(await signIn(attacker(), nobody, WRONG));
    expectLimited(await signIn(attacker(), nobody, WRONG));

    // Other accounts are not affected.
    const other = await signUp({ name: "Olive Other" });
    ok(await signIn(newBrowser(undefined, { address: addressIn(3) }), other.email, PASSWORD));

    // When the window has passed, the right password works again.
    await db().$executeRaw`UPDATE auth_attempts SET "attemptedAt" = "attemptedAt" - interval '15 minutes 1 second'`;
    ok(await signIn(attacker(), person.email, PASSWORD));
  });

  it("count only failures: successful sign-ins are taken back and clear that client's failures", async () => {
    const person = await signUp({ name: "Sam Success" });
    const browser = newBrowser();
    for (let i = 0; i < 8; i++) ok(await signIn(browser, person.email, PASSWORD));
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < SIGN_IN.client.max - 1; i++) expectWrongPassword(await signIn(browser, person.email, WRONG));
      ok(await signIn(browser, person.email, PASSWORD));
    }
  });

  it("sent all at once get no more tries than sent one by one", async () => {
    const person = await signUp({ name: "Burst Target" });
    const results = await Promise.all(Array.from({ length: 30 }, () => signIn(newBrowser(undefined, { address: addressIn(100) }), person.email, WRONG)));
    const codes = results.map((r) => r?.serverError?.code);
    expect(codes.filter((c) => c === "bad_request")).toHaveLength(SIGN_IN.client.max);
    expect(codes.filter((c) => c === "rate_limited")).toHaveLength(30 - SIGN_IN.client.max);
  });

  it("spread over many addresses stop at 50 per account, but not for a browser that signed in to it before", async () => {
    const person = await signUp({ name: "Dora Distributed" });
    const known = newBrowser(undefined, { address: addressIn(150) });
    ok(await signIn(known, person.email, PASSWORD));
    expect(known.cookies().map((c) => c.name)).toContain("better-auth.known_device");
    const addresses = SIGN_IN.account.max / SIGN_IN.client.max;
    for (let a = 0; a < addresses; a++) {
      for (let i = 0; i < SIGN_IN.client.max; i++) expectWrongPassword(await signIn(newBrowser(undefined, { address: addressIn(110 + a) }), person.email, WRONG));
    }
    expectLimited(await signIn(newBrowser(undefined, { address: addressIn(140) }), person.email, PASSWORD));
    // Also from the known browser's own address, in another browser.
    expectLimited(await signIn(newBrowser(undefined, { address: addressIn(150) }), person.email, PASSWORD));
    ok(await signIn(known, person.email, PASSWORD));
  });

  it("are the same count on better-auth's HTTP endpoint, which answers 429 with Retry-After", async () => {
    const person = await signUp({ name: "Henry Http" });
    for (let i = 0; i < 3; i++) expectWrongPassword(await signIn(newBrowser(undefined, { address: "192.0.2.44" }), person.email, WRONG));
    const http = async (password: string) =>
      POST(
        new Request("http://localhost:3000/api/auth/sign-in/email", {
          method: "POST",
          headers: { "content-type": "application/json", origin: "http://localhost:3000", [PEER_ADDRESS_HEADER]: "192.0.2.44" },
          body: JSON.stringify({ email: person.email, password }),
        }),
      );
    expect((await http(WRONG)).status).toBe(401);
    expect((await http(WRONG)).status).toBe(401);
    const limited = await http(PASSWORD);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(14 * 60);
    expect(((await limited.json()) as { message: string }).message).toMatch(/Try again in 15 minutes/);
    expect(limited.headers.get("set-cookie") ?? "").not.toMatch(/session_token=[^;]/);
  });

  it("count all unknown addresses as one client; a browser that signed in before still gets in", async () => {
    const person = await signUp({ name: "Una Unknown" });
    const unknown = () => newBrowser(undefined, { address: null });
    const owner = unknown();
    ok(await signIn(owner, person.email, PASSWORD));
    for (let i = 0; i < SIGN_IN.client.max; i++) expectWrongPassword(await signIn(unknown(), person.email, WRONG));
    expectLimited(await signIn(unknown(), person.email, PASSWORD));
    ok(await signIn(owner, person.email, PASSWORD));
  });

  it("a known-browser cookie of another account counts for nothing", async () => {
    const [victim, attacker] = [await signUp({ name: "Vic Victim" }), await signUp({ name: "Al Attacker" })];
    const browser = newBrowser(undefined, { address: addressIn(160) });
    ok(await signIn(browser, attacker.email, PASSWORD));
    for (let i = 0; i < SIGN_IN.client.max; i++) expectWrongPassword(await signIn(browser, victim.email, WRONG));
    expectLimited(await signIn(browser, victim.email, PASSWORD));
    expectLimited(await signIn(newBrowser(undefined, { address: addressIn(160) }), victim.email, PASSWORD));
  });

  it("are forgotten by `beacon auth unlock <email>`, for every client", async () => {
    const person = await signUp({ name: "Otto Operator" });
    const somewhere = () => newBrowser(undefined, { address: addressIn(170) });
    for (let i = 0; i < SIGN_IN.client.max; i++) expectWrongPassword(await signIn(somewhere(), person.email, WRONG));
    expectLimited(await signIn(somewhere(), person.email, PASSWORD));

    const unlocked = await beacon(["auth", "unlock", person.email.toUpperCase()]);
    expect(unlocked).toMatchObject({ code: 0, stdout: `${person.email.toUpperCase()}: ${SIGN_IN.client.max} failed sign-ins forgotten; it can sign in again.\n` });
    ok(await signIn(somewhere(), person.email, PASSWORD));
    expect((await beacon(["auth", "unlock"])).code).toBe(2);
  });
});

describe("failed sign-ins per client address", () => {
  it("are limited to 20 in 15 minutes across accounts; other addresses are not affected", async () => {
    const person = await signUp({ name: "Nora Network" });
    const attacker = () => newBrowser(undefined, { address: addressIn(7) });
    for (let i = 0; i < SIGN_IN.address.max; i++) expectWrongPassword(await signIn(attacker(), uniqueEmail("spray"), WRONG));
    expectLimited(await signIn(attacker(), person.email, PASSWORD));
    ok(await signIn(newBrowser(undefined, { address: addressIn(8) }), person.email, PASSWORD));
  });

  it("ignore X-Forwarded-For from a client that is not a trusted proxy", async () => {
    const person = await signUp({ name: "Xena Forwarded" });
    // Every request claims another origin; the socket address is the same.
    const spoofing = (i: number) => newBrowser(undefined, { address: addressIn(9), forwardedFor: `198.51.100.${i}` });
    for (let i = 0; i < SIGN_IN.address.max; i++) expectWrongPassword(await signIn(spoofing(i), uniqueEmail("spoof"), WRONG));
    expectLimited(await signIn(spoofing(99), person.email, PASSWORD));
  });

  it("honour X-Forwarded-For through a trusted proxy: each client behind it is counted on its own", async () => {
    const person = await signUp({ name: "Pia Proxied" });
    const viaProxy = (client: string) => newBrowser(undefined, { address: "10.0.0.5", forwardedFor: `1.2.3.4, ${client}` });
    for (let i = 0; i < SIGN_IN.address.max; i++) expectWrongPassword(await signIn(viaProxy("198.51.100.200"), uniqueEmail("behind"), WRONG));
    expectLimited(await signIn(viaProxy("198.51.100.200"), person.email, PASSWORD));
    // Same proxy, another client: fine. (The "1.2.3.4" the client wrote on the left is ignored.)
    ok(await signIn(viaProxy("198.51.100.201"), person.email, PASSWORD));
    const rows = await db().authAttempt.findMany({ where: { bucket: { startsWith: "sign-in:address:" } }, select: { bucket: true } });
    expect(rows.some((r) => r.bucket.endsWith("198.51.100.200"))).toBe(true);
    expect(rows.some((r) => r.bucket.endsWith("10.0.0.5") || r.bucket.endsWith("1.2.3.4"))).toBe(false);
  });
});

describe("sign-up attempts", () => {
  it("are limited to 20 per client address an hour", async () => {
    const browser = () => newBrowser(undefined, { address: addressIn(30) });
    for (let i = 0; i < SIGN_UP.address.max; i++) {
      ok(await browser().run(() => signUpAction({ name: "Bulk Person", email: uniqueEmail("bulk"), password: PASSWORD })));
    }
    const before = await db().user.count();
    expectLimited(
      await browser().run(() => signUpAction({ name: "Bulk Person", email: uniqueEmail("bulk"), password: PASSWORD })),
      /Try again in (59|60) minutes\./,
    );
    expect(await db().user.count()).toBe(before);
  });

  it("are limited to 5 per email address an hour, whether or not it has an account", async () => {
    const email = uniqueEmail("again");
    for (let i = 0; i < SIGN_UP.account.max; i++) {
      ok(await newBrowser().run(() => signUpAction({ name: "Again Person", email, password: PASSWORD })));
    }
    expectLimited(await newBrowser().run(() => signUpAction({ name: "Again Person", email, password: PASSWORD })), /Try again in (59|60) minutes\./);
  });
});
