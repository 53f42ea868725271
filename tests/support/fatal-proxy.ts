// A TCP proxy in front of the test's PostgreSQL that can end a new connection the way a database
// restart does at the worst moment: the server's FATAL 57P01 ("terminating connection due to
// administrator command") in the same TCP segment as the ReadyForQuery that completes the
// connection's start-up. pg's parser handles both messages in one synchronous loop, so the error
// arrives after the pool has handed the client out but before a caller that awaited the hand-out
// can attach an error listener: the moment a fast restart hit in CI (a worker died on an
// unhandled 'error' event).
import net from "node:net";

// Backend message: type byte, then an int32 length that counts itself and the body.
const READY_FOR_QUERY = 0x5a; // 'Z'

function fatalTerminating(): Buffer {
  const fields = Buffer.concat(
    [
      ["S", "FATAL"],
      ["V", "FATAL"],
      ["C", "57P01"],
      ["M", "terminating connection due to administrator command"],
    ].map(([code, value]) => Buffer.from(`${code}${value}\0`, "utf8")),
  );
  const body = Buffer.concat([fields, Buffer.from([0])]);
  const header = Buffer.alloc(5);
  header[0] = 0x45; // 'E'
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

/**
 * For a proxy's `client` connection: its connection to the database at `target`, both tracked in
 * `sockets` (so the proxy can end them) and each closed with the other. The caller pipes them.
 */
export function connectUpstream(client: net.Socket, target: URL, sockets: Set<net.Socket>): net.Socket {
  const upstream = net.connect(Number(target.port || 5432), target.hostname);
  for (const s of [client, upstream]) {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    s.on("error", () => {});
  }
  client.on("close", () => upstream.destroy());
  upstream.on("close", () => client.destroy());
  return upstream;
}

/** Starts `server` on a free local port; the database URL that reaches the database through it. */
export async function listenAsDatabase(server: net.Server, databaseUrl: string): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(databaseUrl);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as net.AddressInfo).port);
  return url.toString();
}

export type FatalProxy = {
  url: string;
  /** Connections the proxy ended with the FATAL so far. */
  readonly ended: number;
  close: () => Promise<void>;
};

/**
 * `endConnection(n)` decides for the n-th connection (1-based) whether it ends right after its
 * start-up; the others pass through untouched.
 */
export async function startFatalProxy(databaseUrl: string, endConnection: (n: number) => boolean): Promise<FatalProxy> {
  const target = new URL(databaseUrl);
  const sockets = new Set<net.Socket>();
  let connections = 0;
  let ended = 0;
  const server = net.createServer((client) => {
    const n = ++connections;
    const upstream = connectUpstream(client, target, sockets);
    client.pipe(upstream);
    if (!endConnection(n)) {
      upstream.pipe(client);
      return;
    }
    // Frame the server's messages until the first ReadyForQuery, then send everything up to it
    // and the FATAL in one write, and close both sides as the server would.
    let pending = Buffer.alloc(0);
    upstream.on("data", (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (let at = 0; at + 5 <= pending.length; ) {
        const length = pending.readInt32BE(at + 1);
        if (at + 1 + length > pending.length) break;
        if (pending[at] === READY_FOR_QUERY) {
          ended++;
          client.end(Buffer.concat([pending.subarray(0, at + 1 + length), fatalTerminating()]));
          upstream.destroy();
          return;
        }
        at += 1 + length;
      }
    });
  });
  return {
    url: await listenAsDatabase(server, databaseUrl),
    get ended() {
      return ended;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
