// Simulated browsers for calling server actions outside Next.js.
//
// Server actions read the request through `next/headers` (`headers()`, `cookies()`), which only
// work inside a Next request scope. This module stands in for those two accessors and nothing
// else: the database, better-auth and the actions all run for real. Each `Browser` has its own
// cookie jar; `browser.run(fn)` opens one simulated server-action request whose Cookie header
// is built from the jar, and cookies the request sets (better-auth's session cookie through its
// nextCookies plugin, our `beacon_workspace` cookie) go back into that jar, like a real browser.
//
// Each browser also has its own client address, sent as the web server's preload
// (scripts/peer-address.cjs) would write it; this module marks the process the way that preload
// does, so the sign-in limiter believes the address as it would in production.
//
// Two ways in, because two module loaders read `next/headers`:
//  - our code (lib/, inlined by vitest): every test file calls
//      vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));
//  - better-auth (node_modules, loaded by Node itself, where vi.mock does not reach) imports
//    `next/headers.js` lazily; that CommonJS module's exports are replaced below, before
//    better-auth first imports it. `assertRequestScopeWired()` fails loudly if that did not take.
import { AsyncLocalStorage } from "node:async_hooks";
import { createRequire } from "node:module";

type SameSite = "lax" | "strict" | "none" | boolean;
export type CookieOptions = {
  maxAge?: number;
  expires?: Date | number;
  path?: string;
  domain?: string;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: SameSite;
  partitioned?: boolean;
};
export type StoredCookie = CookieOptions & { name: string; value: string };

type RequestScope = {
  browser: Browser;
  headers: Headers;
  /** The request's cookies as Next shows them to an action: the sent ones plus those set since. */
  cookies: Map<string, string>;
};

// Kept on globalThis: should vitest evaluate this module twice in one process, both copies must
// use the same storage and functions, or Node's snapshot of next/headers.js would go stale.
type Accessors = { cookies: typeof cookies; headers: typeof headers; draftMode: typeof draftMode };
type Shared = { scope: AsyncLocalStorage<RequestScope>; accessors?: Accessors; wired?: Promise<void> };
const shared = ((globalThis as { beaconRequestContext?: Shared }).beaconRequestContext ??= { scope: new AsyncLocalStorage() });
const scope = shared.scope;

function outsideScope(name: string): Error {
  // Same wording as Next, which better-auth's nextCookies plugin recognises.
  return new Error(`\`${name}\` was called outside a request scope. (tests/support/request-context.ts: wrap the call in browser.run())`);
}

function current(name: string): RequestScope {
  const s = scope.getStore();
  if (!s) throw outsideScope(name);
  return s;
}

function expiry(options: CookieOptions): Date | undefined {
  if (options.maxAge !== undefined) return new Date(Date.now() + options.maxAge * 1000);
  if (options.expires !== undefined) return new Date(options.expires);
  return undefined;
}

// scripts/peer-address.cjs and lib/auth/client-address.ts agree on these.
export const PEER_ADDRESS_HEADER = "x-beacon-peer-address";
(globalThis as Record<symbol, unknown>)[Symbol.for("beacon.peer-address-header")] = true;

let browsers = 0;
/** A distinct address per browser, from 198.18.0.0/15 (reserved for benchmarking networks). */
function nextAddress(): string {
  browsers += 1;
  return `198.${18 + ((browsers >> 16) & 1)}.${(browsers >> 8) & 255}.${browsers & 255}`;
}

/** A browser with its own cookie jar and client address. */
export class Browser {
  private readonly jar = new Map<string, StoredCookie & { expiresAt?: Date }>();

  constructor(
    readonly userAgent = "Mozilla/5.0 (beacon integration test)",
    /** The socket address the server sees; null: a server without the preload (unknown address). */
    readonly address: string | null = nextAddress(),
    /** Sent as X-Forwarded-For, as a client or a proxy would. */
    readonly forwardedFor?: string,
  ) {}

  /** Runs `fn` as one server-action request from this browser. */
  run<T>(fn: () => T | Promise<T>): Promise<T> {
    const sent = this.cookies();
    const headers = new Headers({
      host: "localhost:3000",
      origin: "http://localhost:3000",
      "user-agent": this.userAgent,
      accept: "text/x-component",
      "next-action": "integration-test",
    });
    if (this.address) headers.set(PEER_ADDRESS_HEADER, this.address);
    if (this.forwardedFor) headers.set("x-forwarded-for", this.forwardedFor);
    if (sent.length) headers.set("cookie", sent.map((c) => `${c.name}=${encodeURIComponent(c.value)}`).join("; "));
    const request: RequestScope = { browser: this, headers, cookies: new Map(sent.map((c) => [c.name, c.value])) };
    return scope.run(request, async () => {
      await (shared.wired ??= assertRequestScopeWired());
      return fn();
    });
  }

  /** Unexpired cookies in the jar. */
  cookies(): StoredCookie[] {
    const now = Date.now();
    for (const [name, c] of this.jar) if (c.expiresAt && c.expiresAt.getTime() <= now) this.jar.delete(name);
    return [...this.jar.values()].map(({ expiresAt: _expiresAt, ...c }) => c);
  }

  cookie(name: string): string | undefined {
    return this.cookies().find((c) => c.name === name)?.value;
  }

  /** Stores a cookie as a response would (also how a test forges one). maxAge <= 0 deletes it. */
  setCookie(name: string, value: string, options: CookieOptions = {}): void {
    const expiresAt = expiry(options);
    if (expiresAt && expiresAt.getTime() <= Date.now()) {
      this.jar.delete(name);
      return;
    }
    this.jar.set(name, { ...options, name, value, expiresAt });
  }

  clearCookies(): void {
    this.jar.clear();
  }
}

export function newBrowser(userAgent?: string, network: { address?: string | null; forwardedFor?: string } = {}): Browser {
  return new Browser(userAgent, network.address === undefined ? nextAddress() : network.address, network.forwardedFor);
}

// ---------------------------------------------------------------------------------------------
// The accessors

type CookieView = { name: string; value: string };

function cookieStore() {
  const request = current("cookies");
  const view = (name: string): CookieView | undefined => {
    const value = request.cookies.get(name);
    return value === undefined ? undefined : { name, value };
  };
  const store = {
    get(nameOrCookie: string | { name: string }) {
      return view(typeof nameOrCookie === "string" ? nameOrCookie : nameOrCookie.name);
    },
    getAll(name?: string): CookieView[] {
      const all = [...request.cookies.keys()].map((n) => view(n)!);
      return name === undefined ? all : all.filter((c) => c.name === name);
    },
    has(name: string) {
      return request.cookies.has(name);
    },
    set(...args: [string, string, CookieOptions?] | [StoredCookie]) {
      const [name, value, options] =
        typeof args[0] === "string" ? [args[0], args[1] as string, (args[2] ?? {}) as CookieOptions] : [args[0].name, args[0].value, args[0]];
      const expiresAt = expiry(options);
      if (expiresAt && expiresAt.getTime() <= Date.now()) request.cookies.delete(name);
      else request.cookies.set(name, value);
      request.browser.setCookie(name, value, options);
      return store;
    },
    delete(nameOrOptions: string | { name: string }) {
      const name = typeof nameOrOptions === "string" ? nameOrOptions : nameOrOptions.name;
      request.cookies.delete(name);
      request.browser.setCookie(name, "", { maxAge: 0 });
      return store;
    },
    get size() {
      return request.cookies.size;
    },
    toString() {
      return [...request.cookies].map(([n, v]) => `${n}=${encodeURIComponent(v)}`).join("; ");
    },
    [Symbol.iterator]() {
      return [...request.cookies].map(([n, v]) => [n, { name: n, value: v }] as const)[Symbol.iterator]();
    },
  };
  return store;
}

export async function cookies() {
  return cookieStore();
}

export async function headers(): Promise<Headers> {
  // A copy: request headers are read-only in Next.
  return new Headers(current("headers").headers);
}

export async function draftMode(): Promise<never> {
  throw new Error("draftMode() is not simulated in integration tests");
}

/** What `vi.mock("next/headers", ...)` returns in every test file. */
export const nextHeadersMock: Accessors = (shared.accessors ??= { cookies, headers, draftMode });

// ---------------------------------------------------------------------------------------------
// better-auth imports `next/headers.js` natively; point that CommonJS module at the same accessors.

const require = createRequire(import.meta.url);
const nativeNextHeaders = require("next/headers.js") as Record<string, unknown>;
Object.assign(nativeNextHeaders, nextHeadersMock);

/** Fails when better-auth would see Next's real `next/headers` instead of these accessors. */
export async function assertRequestScopeWired(): Promise<void> {
  // Node builds the ESM view of the CommonJS module from its exports on first import.
  const esm = (await import(/* @vite-ignore */ require.resolve("next/headers.js"))) as Record<string, unknown>;
  if (esm.cookies !== nextHeadersMock.cookies || esm.headers !== nextHeadersMock.headers) {
    throw new Error(
      "next/headers.js was imported before tests/support/request-context.ts patched it: import the helper before anything that loads better-auth or next/headers.",
    );
  }
}
