// The HTTP layer of the GigaChat adapter: node:http/https rather than fetch, because Sber's
// endpoints are signed by the Russian Trusted Root CA and Node's fetch takes no CA without the
// undici package. Verification is never turned off: either NODE_EXTRA_CA_CERTS names the
// certificate (Node adds it to its roots for every connection), or GIGACHAT_CA_CERT_FILE does and
// it is added to Node's default roots for GigaChat's connections only.
//
// The request's AbortSignal destroys the socket at once, before or during the response: closing
// the connection is what stops GigaChat's generation (seeds/004).
import { readFileSync } from "node:fs";
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import tls from "node:tls";

export type GigaChatTls = { caFile?: string };

const agents = new Map<string, https.Agent>();

/** One agent per CA file, its certificate read once: Node's default roots plus that CA. */
function agentFor(caFile: string): https.Agent {
  let agent = agents.get(caFile);
  if (!agent) {
    const ca = readFileSync(caFile, "utf8");
    agent = new https.Agent({ keepAlive: true, ca: [...tls.rootCertificates, ca] });
    agents.set(caFile, agent);
  }
  return agent;
}

export type HttpResponse = {
  status: number;
  header: (name: string) => string | undefined;
  body: IncomingMessage;
};

/** Sends one request; resolves when the response headers arrive. */
export function send(url: string, options: { headers: Record<string, string>; body: string; signal: AbortSignal; tls: GigaChatTls }): Promise<HttpResponse> {
  const target = new URL(url);
  const secure = target.protocol === "https:";
  const client = secure ? https : http;
  const agent = secure && options.tls.caFile ? agentFor(options.tls.caFile) : undefined;
  return new Promise((resolve, reject) => {
    const req = client.request(target, { method: "POST", headers: { ...options.headers, "content-length": Buffer.byteLength(options.body).toString() }, signal: options.signal, agent }, (res) => {
      resolve({
        status: res.statusCode ?? 0,
        header: (name) => {
          const value = res.headers[name.toLowerCase()];
          return Array.isArray(value) ? value[0] : value;
        },
        body: res,
      });
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

/** The whole body as text, at most `limit` characters kept (error pages can be large). */
export async function readText(body: IncomingMessage, limit = 64_000): Promise<string> {
  let text = "";
  body.setEncoding("utf8");
  for await (const chunk of body) if (text.length < limit) text += chunk as string;
  return text.slice(0, limit);
}

const TLS_UNTRUSTED = /SELF_SIGNED_CERT|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT|CERT_UNTRUSTED|CERT_HAS_EXPIRED|ERR_TLS_CERT_ALTNAME_INVALID/;

/** A certificate the server presented that Node does not trust (no retry can fix it). */
export function isUntrustedCertificate(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && TLS_UNTRUSTED.test(code);
}

/**
 * Server-sent events from a byte stream: the `data:` of each event (lines joined), in order.
 * GigaChat ends the stream with `data: [DONE]`.
 */
export async function* sseData(body: IncomingMessage): AsyncGenerator<string> {
  body.setEncoding("utf8");
  let buffer = "";
  const eventsIn = function* (flush: boolean) {
    buffer = buffer.replace(/\r\n/g, "\n");
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0 || (flush && buffer.trim())) {
      const raw = end >= 0 ? buffer.slice(0, end) : buffer;
      buffer = end >= 0 ? buffer.slice(end + 2) : "";
      const data = raw
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).replace(/^ /, ""));
      if (data.length) yield data.join("\n");
    }
  };
  for await (const chunk of body) {
    buffer += chunk as string;
    yield* eventsIn(false);
  }
  yield* eventsIn(true);
}
