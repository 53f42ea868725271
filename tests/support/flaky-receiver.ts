// An alert receiver that fails sometimes (tests/integration/lifecycle-chaos.test.ts): a local
// HTTP server standing in for Slack's incoming webhooks. Each request is recorded with what the
// receiver did: accepted it at once (200), accepted it but answered after the sender's timeout
// (the message is posted, the sender cannot know: an unknown outcome), or refused it (500, not
// posted). A message "sent" is one the receiver accepted; an id-less channel must never have the
// same delivery accepted twice.
import http, { type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type ReceiverFaults = { failRate: number; slowRate: number };

export type ReceivedHit = { path: string; body: unknown; at: number; answer: "accepted" | "accepted-late" | "refused" };

export type FlakyReceiver = {
  url: string;
  hits: ReceivedHit[];
  setFaults: (faults: ReceiverFaults) => void;
  close: () => Promise<void>;
};

/** `lateMs`: how long an "accepted-late" answer takes (longer than the sender's timeout). */
export async function startFlakyReceiver(options: { lateMs: number; random?: () => number }): Promise<FlakyReceiver> {
  const hits: ReceivedHit[] = [];
  let faults: ReceiverFaults = { failRate: 0, slowRate: 0 };
  const random = options.random ?? Math.random;
  const open = new Set<ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (text += c));
    req.on("end", () => {
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // kept as text
      }
      const draw = random();
      const answer: ReceivedHit["answer"] = draw < faults.failRate ? "refused" : draw < faults.failRate + faults.slowRate ? "accepted-late" : "accepted";
      hits.push({ path: req.url ?? "/", body, at: Date.now(), answer });
      if (answer === "refused") return void res.writeHead(500).end("try later");
      if (answer === "accepted") return void res.writeHead(200).end("ok");
      open.add(res);
      const timer = setTimeout(() => {
        timers.delete(timer);
        open.delete(res);
        if (!res.destroyed) res.writeHead(200).end("ok");
      }, options.lateMs);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    setFaults: (f) => (faults = f),
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
