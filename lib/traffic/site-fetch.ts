import "server-only";
import http from "node:http";
import https from "node:https";
import type { AddressGuard } from "@/lib/net/safe-url";
import { UnsafeUrlError } from "@/lib/net/safe-url";

// One GET of a brand's site for site readiness, as a crawler would make it: its user agent,
// redirects followed (at most five, as RFC 9309 asks of robots.txt fetches), every hop through
// the SSRF guard (a redirect to the instance's own network is refused, not followed), one
// deadline for the whole chain and at most `maxBytes` of the body read before the socket is cut.

export type Fetched = { status: number; body: string; contentType: string | null; url: string };
/** Why there is no status: the deadline passed, the guard refused an address, or the connection failed. */
export type FetchFailure = { failure: "timeout" | "refused" | "error"; message: string };

const MAX_REDIRECTS = 5;

export type FetchOptions = { userAgent: string; maxBytes: number; timeoutMs: number; guard: AddressGuard; signal?: AbortSignal };

export async function fetchSite(url: string, options: FetchOptions): Promise<Fetched | FetchFailure> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  // A DNS lookup cannot be aborted: the check of the addresses races the deadline instead.
  const deadline = new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }));
  deadline.catch(() => undefined);
  let target = new URL(url);
  try {
    for (let hop = 0; ; hop++) {
      if (target.protocol !== "https:" && target.protocol !== "http:") return { failure: "refused", message: `${target.protocol} URLs are not fetched` };
      // Node skips `lookup` for IP literals, so those are checked here.
      await Promise.race([options.guard.checkedAddresses(target.hostname), deadline]);
      const answer = await get(target, options, signal);
      const location = answer.status >= 300 && answer.status < 400 ? answer.location : null;
      if (!location || hop === MAX_REDIRECTS) return { status: answer.status, body: answer.body, contentType: answer.contentType, url: target.toString() };
      target = new URL(location, target);
    }
  } catch (error) {
    if (error instanceof UnsafeUrlError) return { failure: "refused", message: error.message };
    if (timeout.aborted) return { failure: "timeout", message: `No answer within ${options.timeoutMs / 1000} s` };
    const e = error as NodeJS.ErrnoException;
    return { failure: "error", message: `${e.code ?? "network error"}: ${e.message}`.slice(0, 300) };
  }
}

type Answer = { status: number; location: string | null; body: string; contentType: string | null };

function get(target: URL, options: FetchOptions, signal: AbortSignal): Promise<Answer> {
  const request = target.protocol === "https:" ? https.request : http.request;
  return new Promise<Answer>((resolve, reject) => {
    const req = request(
      target,
      { method: "GET", lookup: options.guard.lookup, headers: { "user-agent": options.userAgent, accept: "*/*" }, signal, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const location = typeof res.headers.location === "string" ? res.headers.location : null;
          resolve({ status: res.statusCode ?? 0, location, body: Buffer.concat(chunks).toString("utf8"), contentType: res.headers["content-type"] ?? null });
        };
        res.on("data", (chunk: Buffer) => {
          const room = options.maxBytes - size;
          if (room > 0) chunks.push(room >= chunk.length ? chunk : chunk.subarray(0, room));
          size += chunk.length;
          // Enough read: the rest is not wanted, and a huge or endless body must not hold the check.
          if (size >= options.maxBytes) {
            res.destroy();
            done();
          }
        });
        res.on("end", done);
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}
