// A local server that speaks both SERP data APIs the Google adapters use, each in its documented
// wire format (lib/providers/dataforseo.ts and lib/providers/serpapi.ts cite the pages):
//   DataForSEO  POST /v3/serp/google/organic/live/advanced, POST /v3/serp/google/ai_mode/live/advanced
//               (Basic auth; a JSON array of one task; errors as status codes inside HTTP 200)
//   SerpApi     GET /search.json?engine=google|google_ai_overview|google_ai_mode&api_key=...
// Point DATAFORSEO_BASE_URL and SERPAPI_BASE_URL at its url.
//
// What a request gets: the next scripted scenario (`enqueue`), else the one its query names
// (`fake:<name> ...`, see GOOGLE_SERP_SCENARIOS; usable from worker processes), else an answer
// with an overview. SerpApi's page_token requests answer for the token the server handed out and
// take no scenario. Every request is recorded, with whether the client closed the connection.
import { randomBytes } from "node:crypto";
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { DATAFORSEO_AI_MODE, DATAFORSEO_ORGANIC_ITEM, DATAFORSEO_OVERVIEW, SERPAPI_AI_MODE, SERPAPI_ORGANIC_RESULTS, SERPAPI_OVERVIEW } from "./google-serp-fixtures";

export type SerpScenario =
  | { kind: "answer" }
  /** The SERP has no AI Overview (AI Mode: Google answered nothing); DataForSEO reports `cost` (USD) for the task. */
  | { kind: "no-overview"; cost?: number }
  /** SerpApi: the overview only as a page_token, fetched with engine=google_ai_overview. */
  | { kind: "page-token" }
  | { kind: "status"; status: number; body?: unknown; headers?: Record<string, string> }
  /** DataForSEO: HTTP 200 whose task carries this status code. */
  | { kind: "task-error"; code: number; message: string; cost?: number }
  /** SerpApi: HTTP 200 with an `error` that is not "no results". */
  | { kind: "error-200"; message: string }
  | { kind: "raw"; contentType: string; body: string }
  /** Never answers; waits for the client to go away. */
  | { kind: "hang" }
  /** Sends the headers and half the body, then resets the connection. */
  | { kind: "reset" };

export type SerpRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** DataForSEO's task (the first element of the posted array). */
  task?: Record<string, unknown>;
  /** What was asked: DataForSEO's task, or SerpApi's query parameters. */
  body: Record<string, unknown>;
  /** tasks[0].id (DataForSEO) or search_metadata.id (SerpApi). */
  id: string;
  closedBy?: "client" | "server";
  closed: Promise<void>;
};

export type FakeSerpServer = { url: string; requests: SerpRequest[]; enqueue: (...scenarios: SerpScenario[]) => void; close: () => Promise<void> };

export const GOOGLE_SERP_SCENARIOS: Record<string, SerpScenario> = {
  answer: { kind: "answer" },
  "no-overview": { kind: "no-overview" },
  "page-token": { kind: "page-token" },
  "rate-limited": { kind: "status", status: 429, headers: { "retry-after": "3" }, body: { error: "Your account has exceeded the hourly searches limit." } },
  "server-error": { kind: "status", status: 500, body: { status_code: 50000, status_message: "Internal Error." } },
  unauthorized: { kind: "status", status: 401, body: { status_code: 40100, status_message: "You are not authorized to access this resource.", error: "Invalid API key." } },
  hang: { kind: "hang" },
};

const DFS_PATHS: Record<string, "organic" | "ai_mode"> = { "/v3/serp/google/organic/live/advanced": "organic", "/v3/serp/google/ai_mode/live/advanced": "ai_mode" };

function scenarioNamedIn(query: unknown): SerpScenario | undefined {
  const match = typeof query === "string" ? /^fake:(\S+)/.exec(query) : null;
  return match ? GOOGLE_SERP_SCENARIOS[match[1]!] : undefined;
}

function dataForSeoBody(record: SerpRequest, kind: "organic" | "ai_mode", taskStatus: { code: number; message: string; cost: number }, items: unknown[] | null) {
  const task = record.task ?? {};
  return {
    version: "0.1.20261101",
    status_code: 20000,
    status_message: "Ok.",
    time: "4.1 sec.",
    cost: taskStatus.cost,
    tasks_count: 1,
    tasks_error: taskStatus.code === 20000 ? 0 : 1,
    tasks: [
      {
        id: record.id,
        status_code: taskStatus.code,
        status_message: taskStatus.message,
        time: "4.0 sec.",
        cost: taskStatus.cost,
        result_count: items ? 1 : 0,
        path: ["v3", "serp", "google", kind, "live", "advanced"],
        data: { api: "serp", function: "live", se: "google", se_type: kind, ...task },
        result: items ? [{ keyword: task.keyword, type: kind, se_domain: "google.com", location_code: task.location_code, language_code: task.language_code, item_types: [...new Set(items.map((i) => (i as { type: string }).type))], items_count: items.length, items }] : null,
      },
    ],
  };
}

export async function startFakeGoogleSerp(): Promise<FakeSerpServer> {
  const requests: SerpRequest[] = [];
  const queue: SerpScenario[] = [];
  const tokens = new Set<string>();
  const server = http.createServer(async (req: IncomingMessage, res: ServerResponse) => {
    let markClosed = () => {};
    const closed = new Promise<void>((resolve) => (markClosed = resolve));
    const url = new URL(req.url ?? "/", "http://localhost");
    const record: SerpRequest = { method: req.method ?? "", path: url.pathname, query: url.searchParams, headers: req.headers, body: Object.fromEntries(url.searchParams), id: randomBytes(8).toString("hex"), closed };
    requests.push(record);
    res.on("close", () => {
      if (!res.writableFinished && !record.closedBy) record.closedBy = "client";
      markClosed();
    });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
      res.end(JSON.stringify(body));
    };

    const dfs = DFS_PATHS[url.pathname];
    const engine = url.searchParams.get("engine");
    if (dfs && req.method === "POST") {
      try {
        record.task = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>[])[0];
        record.body = record.task ?? {};
      } catch {
        return json(200, { status_code: 40503, status_message: "POST Data Is Invalid.", tasks: [] });
      }
      record.id = `11301200-1535-0139-0000-${record.id.slice(0, 12)}`;
    } else if (url.pathname === "/search.json" && req.method === "GET" && engine === "google_ai_overview") {
      const token = url.searchParams.get("page_token") ?? "";
      if (!tokens.has(token)) return json(400, { error: "page_token is invalid or has expired." });
      return json(200, { search_metadata: { id: record.id, status: "Success" }, search_parameters: { engine, page_token: token }, ai_overview: SERPAPI_OVERVIEW });
    } else if (url.pathname !== "/search.json" || req.method !== "GET" || (engine !== "google" && engine !== "google_ai_mode")) {
      return json(404, { error: `no route ${req.method} ${req.url}` });
    }

    const query = record.task?.keyword ?? url.searchParams.get("q");
    const scenario = queue.shift() ?? scenarioNamedIn(query) ?? { kind: "answer" };
    const metadata = { id: record.id, status: "Success", json_endpoint: `https://serpapi.com/searches/${record.id}.json` };
    switch (scenario.kind) {
      case "status":
        return json(scenario.status, scenario.body ?? { error: `status ${scenario.status}` }, scenario.headers);
      case "raw":
        res.writeHead(200, { "content-type": scenario.contentType });
        return res.end(scenario.body);
      case "hang":
        return; // not even the headers go out
      case "reset":
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"version":"0.1","status_code":20000,"tasks":[{"id":"', () => {
          record.closedBy = "server";
          // Give the loopback a turn to deliver the bytes before the RST discards unsent data.
          setImmediate(() => req.socket.resetAndDestroy());
        });
        return;
      case "task-error":
        return json(200, dataForSeoBody(record, dfs ?? "organic", { code: scenario.code, message: scenario.message, cost: scenario.cost ?? 0 }, null));
      case "error-200":
        return json(200, { search_metadata: { ...metadata, status: "Error" }, error: scenario.message });
    }
    if (dfs) {
      const overview = dfs === "organic" ? DATAFORSEO_OVERVIEW : DATAFORSEO_AI_MODE;
      const items = scenario.kind === "no-overview" ? (dfs === "organic" ? [DATAFORSEO_ORGANIC_ITEM] : []) : dfs === "organic" ? [overview, DATAFORSEO_ORGANIC_ITEM] : [overview];
      const listCost = dfs === "organic" ? 0.0032 : 0.004;
      const cost = scenario.kind === "no-overview" ? (scenario.cost ?? listCost) : listCost;
      return json(200, dataForSeoBody(record, dfs, { code: 20000, message: "Ok.", cost }, items));
    }
    const params = Object.fromEntries(url.searchParams);
    delete params.api_key;
    if (engine === "google_ai_mode") {
      if (scenario.kind === "no-overview") return json(200, { search_metadata: metadata, search_parameters: params, error: "Google hasn't returned any results for this query." });
      return json(200, { search_metadata: metadata, search_parameters: params, ...SERPAPI_AI_MODE });
    }
    if (scenario.kind === "no-overview") return json(200, { search_metadata: metadata, search_parameters: params, organic_results: SERPAPI_ORGANIC_RESULTS });
    if (scenario.kind === "page-token") {
      const token = `tok-${randomBytes(6).toString("hex")}`;
      tokens.add(token);
      return json(200, { search_metadata: metadata, search_parameters: params, ai_overview: { page_token: token, serpapi_link: `https://serpapi.com/search.json?engine=google_ai_overview&page_token=${token}` }, organic_results: SERPAPI_ORGANIC_RESULTS });
    }
    return json(200, { search_metadata: metadata, search_parameters: params, ai_overview: SERPAPI_OVERVIEW, organic_results: SERPAPI_ORGANIC_RESULTS });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...scenarios) => queue.push(...scenarios),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
