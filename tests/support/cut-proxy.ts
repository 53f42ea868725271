// A TCP proxy in front of the test's PostgreSQL that can lose one connection the way a network
// does: the client's side closes, while the server's side stays open and its backend goes on with
// the statement it was running (PostgreSQL notices a lost client only when it next writes to it).
// What the backend then answers is read and dropped. A process pointed at `url` sees "Connection
// terminated" for its statement, which may still commit.
import net from "node:net";
import { connectUpstream, listenAsDatabase } from "./fatal-proxy";

export type CutProxy = {
  url: string;
  /** Loses the connection whose backend sees this client port (pg_stat_activity.client_port); false if none. */
  cutClientSide: (backendClientPort: number) => boolean;
  close: () => Promise<void>;
};

export async function startCutProxy(databaseUrl: string): Promise<CutProxy> {
  const target = new URL(databaseUrl);
  const sockets = new Set<net.Socket>();
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    const pair = { client, upstream };
    pairs.add(pair);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {});
    }
    client.on("close", () => {
      // A cut pair's server side lives on (closed with the proxy); any other closes with it.
      if (pairs.has(pair)) upstream.destroy();
    });
    upstream.on("close", () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  return {
    url: await listenAsDatabase(server, databaseUrl),
    cutClientSide(backendClientPort) {
      for (const pair of pairs) {
        if (pair.upstream.localPort !== backendClientPort) continue;
        pairs.delete(pair);
        pair.upstream.unpipe(pair.client);
        pair.upstream.on("data", () => {}); // the server's answers, dropped
        pair.client.destroy();
        return true;
      }
      return false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export type OutageProxy = {
  url: string;
  /** The network goes: every connection through the proxy is reset and new ones are refused until `up`. */
  down: () => void;
  up: () => void;
  close: () => Promise<void>;
};

/** A TCP proxy in front of the test's PostgreSQL whose network can go down for everyone behind it (the database itself stays up). */
export async function startOutageProxy(databaseUrl: string): Promise<OutageProxy> {
  const target = new URL(databaseUrl);
  const sockets = new Set<net.Socket>();
  let isDown = false;
  const server = net.createServer((client) => {
    if (isDown) return void client.destroy();
    const upstream = connectUpstream(client, target, sockets);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  return {
    url: await listenAsDatabase(server, databaseUrl),
    down() {
      isDown = true;
      for (const s of sockets) s.destroy();
    },
    up() {
      isDown = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
