// The chart list is the source of the API's chart names; docs/api.md lists them for readers: a
// new chart (docs/architecture.md "Adding a chart") fails here until the docs name it.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { CHART_NAMES, CHART_PARAMS } from "@/lib/analytics/charts";

const row = fs
  .readFileSync("docs/api.md", "utf8")
  .split("\n")
  .find((line) => line.startsWith("| `GET /api/v1/analytics/:chart`"));

describe("charts", () => {
  it.each(CHART_NAMES)("docs/api.md's analytics row names %s", (name) => {
    expect(row).toContain(`\`${name}\``);
  });

  it("lists each chart's own parameters with the charts that take them", () => {
    expect(CHART_PARAMS.map((p) => [p.name, p.charts])).toEqual([
      ["bucket", ["visibility", "share-of-voice"]],
      ["page", ["cited-pages"]],
      ["pageSize", ["cited-pages"]],
      ["domain", ["cited-pages"]],
      ["includeEntityDomains", ["gap-sources"]],
    ]);
  });
});
