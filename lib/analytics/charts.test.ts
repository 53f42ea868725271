// The chart list is the source of the API's chart names, of the CLI's list that docs/api.md points
// at, and of the charts a page draws from their modules' views.
import { describe, expect, it } from "vitest";
import { CHART_LIST, CHART_PARAMS, chartListing, pageCharts } from "@/lib/analytics/charts";

describe("charts", () => {
  it.each(CHART_LIST.map((chart) => [chart.name, chart] as const))("npm run beacon -- charts lists %s with what it answers", (_name, chart) => {
    expect(chartListing().split("\n")).toContain(`    ${chart.description}`);
  });

  it("names each chart once, with its own parameters", () => {
    const names = chartListing()
      .split("\n")
      .filter((line) => !line.startsWith(" "));
    expect(names).toHaveLength(CHART_LIST.length);
    expect(names).toContain("cited-pages (?page=&pageSize=&domain=)");
    expect(names).toContain("own-pages");
  });

  it("lists each chart's own parameters with the charts that take them", () => {
    expect(CHART_PARAMS.map((p) => [p.name, p.charts])).toEqual([
      ["bucket", ["visibility", "share-of-voice"]],
      ["page", ["cited-pages", "traffic-pages", "traffic-funnel"]],
      ["pageSize", ["cited-pages", "traffic-pages", "traffic-funnel"]],
      ["domain", ["cited-pages"]],
      ["includeEntityDomains", ["gap-sources"]],
      ["list", ["traffic-funnel"]],
    ]);
  });

  it("hands a page the charts whose views name it, in their order", () => {
    const sources = pageCharts("sources");
    expect(sources.find((c) => c.chart === "own-pages")?.view).toMatchObject({ kind: "table", rows: "items" });
    expect(sources.every((c) => c.view.page === "sources")).toBe(true);
    expect(sources.map((c) => c.view.order)).toEqual(sources.map((c) => c.view.order).toSorted((a, b) => a - b));
    expect(sources.map((c) => c.chart).toSorted()).toEqual(CHART_LIST.filter((c) => c.view?.page === "sources").map((c) => c.name).toSorted());
  });
});
