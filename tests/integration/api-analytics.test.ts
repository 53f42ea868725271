// The dashboards' numbers over REST v1 (GET /api/v1/analytics/<chart>): for every chart and a few
// filters, the route answers exactly what the chart's own query answers for the same filter, with
// each rate's n and 95 % interval; keys are scoped to their workspace; bad input is a 400 naming
// the parameter. The history is the demo seed's simulated one, analysed and rolled up for real.
import { beforeAll, describe, expect, it } from "vitest";
import { callRoute, createTenant, expectApiError, type Tenant } from "../support/api-fixtures";
import { setUpDemo, type Demo } from "../support/check-fixtures";
import { GET as analyticsRoute } from "@/app/api/v1/analytics/[chart]/route";
import { CHARTS, type Chart, type ChartName } from "@/lib/analytics/charts";
import { resolveFilter } from "@/lib/analytics/filter";
import { analyticsFilterInput, filterFromSearchParams, lastDays } from "@/lib/analytics/schemas";
import { createApiKey } from "@/lib/api-keys/api-keys";
import { openApiDocument } from "@/lib/api/openapi";
import { db } from "@/lib/db/prisma";
import { DEMO_BRAND } from "@/lib/seed/demo-content";
import { seedDemoHistory } from "@/lib/seed/demo-history";

let demo: Demo;
let readKey: string;
let brandId: string;
let B: Tenant;

beforeAll(async () => {
  demo = await setUpDemo();
  await seedDemoHistory(demo.workspaceId, { days: 8 });
  readKey = (await createApiKey(demo.workspaceId, { name: "analytics reader", scope: "read", createdById: demo.owner.userId! })).key;
  brandId = (await db().brand.findFirstOrThrow({ where: { workspaceId: demo.workspaceId, name: DEMO_BRAND.name } })).id;
  B = await createTenant("Bravo");
});

const getChart = (chart: string, query: string, apiKey: string | null = readKey) =>
  callRoute(analyticsRoute, { path: `/api/v1/analytics/${chart}${query ? `?${query}` : ""}`, apiKey, params: { chart } });

/** The chart's query called directly for the same query string, as JSON (what the dashboard receives). */
async function direct(workspaceId: string, name: ChartName, query: string): Promise<unknown> {
  const params = new URLSearchParams(query);
  const chart: Chart = CHARTS[name];
  const resolved = await resolveFilter(workspaceId, analyticsFilterInput.parse(filterFromSearchParams(params)));
  const own = chart.params.parse(Object.fromEntries([...params].filter(([k]) => k in chart.params.shape)));
  const value = await chart.query(resolved!, own);
  return JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? Number(v) : v)));
}

describe("GET /api/v1/analytics/<chart>", () => {
  const names = Object.keys(CHARTS) as ChartName[];

  it.each(names)("%s equals the dashboard's numbers for the last 30 days", async (name) => {
    const result = await getChart(name, "range=30");
    expect(result.status, JSON.stringify(result.body).slice(0, 500)).toBe(200);
    expect(result.body).toEqual(await direct(demo.workspaceId, name, "range=30"));
  });

  it("gives each headline number with its n and 95 % interval, from real history", async () => {
    const result = await getChart("kpis", `brand=${brandId}&range=7`);
    expect(result.status).toBe(200);
    const visibility = result.body.visibility.current;
    expect(visibility.n).toBeGreaterThan(0);
    expect(visibility.n).toBe(result.body.captures);
    expect(visibility.low).toBeLessThanOrEqual(visibility.value);
    expect(visibility.high).toBeGreaterThanOrEqual(visibility.value);
    expect(result.body.shareOfVoice.current).toEqual({ value: expect.any(Number), n: visibility.n, low: expect.any(Number), high: expect.any(Number) });
    expect(result.body.sentiment.positive.current.n).toBe(Math.round(visibility.value * visibility.n));
  });

  it("applies the UI's filters the same way: provider, tags, dates, and the cited pages' paging", async () => {
    const provider = demo.providers["ChatGPT"].id;
    const { from, to } = lastDays(20);
    const queries: [ChartName, string][] = [
      ["kpis", `brand=${brandId}&providers=${provider}&tags=smb&from=${from}&to=${to}`],
      ["visibility", `providers=${provider}&range=7`],
      ["prompts", `tags=buying,comparison&range=90`],
      ["top-domains", `tags=smb&range=7`],
      ["own-domain", `providers=${provider}&range=7`],
      ["cited-pages", `range=30&page=2&pageSize=3`],
      ["markets", `range=30`],
    ];
    for (const [name, query] of queries) {
      const result = await getChart(name, query);
      expect(result.status, `${name}?${query}: ${JSON.stringify(result.body).slice(0, 300)}`).toBe(200);
      expect(result.body, `${name}?${query}`).toEqual(await direct(demo.workspaceId, name, query));
    }
    const filtered = await getChart("kpis", `providers=${provider}&range=7`);
    const all = await getChart("kpis", "range=7");
    expect(filtered.body.captures).toBeGreaterThan(0);
    expect(filtered.body.captures).toBeLessThan(all.body.captures);
    expect((await getChart("cited-pages", "range=30&page=2&pageSize=3")).body).toMatchObject({ page: 2, pageSize: 3 });
  });

  it("refuses a request without a valid key with 401", async () => {
    expectApiError(await getChart("kpis", "range=7", null), 401, { code: "unauthorized" });
    expectApiError(await getChart("kpis", "range=7", `bk_00000000_${"x".repeat(40)}`), 401, { code: "unauthorized" });
  });

  it.each([
    ["range=8", "range"],
    ["range=7&from=2025-01-01", "range"],
    ["from=2025-13-01", "from"],
    // Years JavaScript reads as 19xx, and year 0, which PostgreSQL refuses: were 500s.
    ["from=0050-01-01&to=0050-01-20", "from"],
    ["from=0000-01-01&to=0000-01-05", "from"],
    ["from=2025-03-10&to=2025-03-01", "from"],
    ["from=2020-01-01&to=2025-01-01", "from"],
    ["brand=not-a-uuid", "brand"],
    ["providers=nope", "providers.0"],
    ["markets=Germany", "markets.0"],
    ["colour=red", "colour"],
    ["range=7&range=30", "range"],
  ])("refuses ?%s with a 400 naming %s", async (query, field) => {
    expectApiError(await getChart("kpis", query), 400, { code: "validation_error", field });
  });

  it("refuses the cited pages' paging out of bounds, and paging on a chart that has none", async () => {
    expectApiError(await getChart("cited-pages", "pageSize=101"), 400, { field: "pageSize" });
    expectApiError(await getChart("kpis", "page=2"), 400, { field: "page" });
  });

  it("answers 404 for an unknown chart", async () => {
    const error = expectApiError(await getChart("revenue", "range=7"), 404, { code: "not_found" });
    expect(error.message).toContain("kpis");
  });

  it("answers 404 for a brand or provider of another workspace, and never shows its numbers", async () => {
    expectApiError(await getChart("kpis", `brand=${B.brandId}`), 404, { code: "not_found", field: "brand" });
    const foreignProvider = (await db().providerConfig.findFirstOrThrow({ where: { workspaceId: B.workspaceId } })).id;
    expectApiError(await getChart("visibility", `providers=${foreignProvider}`), 404, { code: "not_found", field: "providers" });
    // B's own key sees B's brand, which has no history: nothing of the demo's.
    const own = await getChart("kpis", "range=30", B.apiKey);
    expect(own.status).toBe(200);
    expect(own.body.captures).toBe(0);
    expectApiError(await getChart("kpis", `brand=${brandId}`, B.apiKey), 404, { field: "brand" });
  });

  it("is in the OpenAPI description with every chart and the filter's parameters", () => {
    const operation = openApiDocument.paths["/api/v1/analytics/{chart}"].get;
    const params = operation.parameters as { name: string; schema: { enum?: unknown[] } }[];
    expect(params.find((p) => p.name === "chart")!.schema.enum).toEqual(Object.keys(CHARTS));
    expect(params.map((p) => p.name)).toEqual(expect.arrayContaining(["brand", "providers", "tags", "markets", "range", "from", "to", "page", "pageSize"]));
    expect(operation.security).toEqual([{ bearer: ["read"] }]);
  });
});
