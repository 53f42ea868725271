// The client address of a request to the web app, for the sign-in limiter and session records.
//
// Next.js does not tell route handlers or server actions the socket's peer address: it only
// fills X-Forwarded-For with it when the client sent none, so that header alone is whatever the
// client wants. The web server therefore starts with scripts/peer-address.cjs preloaded
// (scripts/run.ts), which writes the real peer into PEER_ADDRESS_HEADER on every request,
// replacing anything the client sent, and marks the process. Without that mark the header is
// not believed and the address is unknown (per-address limits then do not apply; per-account
// limits still do).
import { env } from "@/lib/config/env";
import { parseTrustedProxies, resolveClientAddress, type TrustedProxies } from "@/lib/net/trusted-proxies";

/** Written by scripts/peer-address.cjs (keep the two in step). */
export const PEER_ADDRESS_HEADER = "x-beacon-peer-address";
/** Set in this process by scripts/peer-address.cjs once it is installed. */
export const PEER_ADDRESS_INSTALLED = Symbol.for("beacon.peer-address-header");
/** Where the resolved address is handed to better-auth (its session records read it). */
export const CLIENT_ADDRESS_HEADER = "x-beacon-client-address";

let proxies: { spec: string | undefined; list: TrustedProxies | null } | undefined;
let warned = false;

function trustedProxies(): TrustedProxies | null {
  const spec = env().BEACON_TRUSTED_PROXIES;
  if (!proxies || proxies.spec !== spec) {
    const parsed = spec ? parseTrustedProxies(spec) : null;
    // env.ts already refused an invalid list at startup.
    proxies = { spec, list: parsed?.ok ? parsed.proxies : null };
  }
  return proxies.list;
}

/** The client's address for a request with these headers, or null when it cannot be known. */
export function clientAddress(headers: Headers | undefined | null): string | null {
  const installed = (globalThis as Record<symbol, unknown>)[PEER_ADDRESS_INSTALLED] === true;
  const peer = installed ? headers?.get(PEER_ADDRESS_HEADER) : null;
  if (!peer) {
    if (!warned && headers) {
      warned = true;
      console.warn(
        `[auth] the client address of requests is unknown (${installed ? `no ${PEER_ADDRESS_HEADER} header` : "scripts/peer-address.cjs is not preloaded"}): ` +
          "per-address sign-in limits are off. Start the web app with npm start or npm run web.",
      );
    }
    return null;
  }
  return resolveClientAddress(peer, headers?.get("x-forwarded-for"), trustedProxies());
}
