// The kinds array is the source of the rule union, the form and the docs' table: a new kind
// (docs/alerts.md "Adding an alert kind") fails here until its form offers every param it takes
// and the docs list it.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { ALERT_KINDS, ALERT_KINDS_BY_REASON, RULE_KINDS } from "@/lib/alerts/kinds";

const docs = fs.readFileSync("docs/alerts.md", "utf8");
const tableRows = docs.split("\n").filter((line) => line.startsWith("| ") && !line.startsWith("| ---"));
const formKeys = (kind: (typeof ALERT_KINDS)[number]) => kind.form.flatMap((row) => ("type" in row ? [row] : row)).map((f) => f.key);

describe("alert kinds", () => {
  it("have unique names and labels", () => {
    expect(new Set(RULE_KINDS).size).toBe(ALERT_KINDS.length);
    expect(new Set(ALERT_KINDS.map((k) => k.label)).size).toBe(ALERT_KINDS.length);
  });

  it.each(ALERT_KINDS.map((k) => [k.name, k] as const))("%s's form offers each of its params once", (_name, kind) => {
    expect(formKeys(kind).sort()).toEqual(Object.keys(kind.params.shape).sort());
  });

  it.each(ALERT_KINDS.map((k) => [k.name, k] as const))("%s has a row in docs/alerts.md's table", (_name, kind) => {
    expect(tableRows.some((line) => line.startsWith(`| ${kind.label} |`)), `no row for ${kind.label}`).toBe(true);
  });

  it("are judged daily, and after checks or every minute as each says", () => {
    expect(ALERT_KINDS_BY_REASON.daily).toEqual(RULE_KINDS);
    expect(ALERT_KINDS_BY_REASON.check).toEqual(["metric_change", "competitor_overtook", "own_page_dropped", "budget"]);
    expect(ALERT_KINDS_BY_REASON.watch).toEqual(["breaker_open", "budget"]);
  });
});
