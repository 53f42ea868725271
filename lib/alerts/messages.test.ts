import { describe, expect, it } from "vitest";
import { renderDigest, renderFiring, renderTest, type DigestKpi } from "@/lib/alerts/messages";

const firing = {
  firing: {
    id: "f1",
    title: "Rival overtook Acme",
    summary: "Rival's share of voice passed Acme's on ChatGPT.",
    facts: { metric: "shareOfVoice", n: 212, values: [0.3141592, 0.2718], interval: [0.25, 0.38], p: 0.004 },
    firedAt: new Date("2026-11-30T08:00:00Z"),
  },
  rule: { id: "r1", name: "Rival watch", kind: "competitor_overtook" },
  brand: { id: "b1", name: "Acme <Inc>" },
  appUrl: "https://beacon.example.com/",
};

describe("renderFiring", () => {
  it("puts the title, summary, link and every fact in each form", () => {
    const m = renderFiring(firing);
    expect(m.subject).toBe("Rival overtook Acme");
    for (const part of ["Rival's share of voice passed Acme's on ChatGPT.", "shareOfVoice", "212", "0.3142 – 0.2718", "0.25 – 0.38", "0.004", "Rival watch", "https://beacon.example.com/alerts"]) {
      expect(m.text).toContain(part);
    }
    // HTML is escaped.
    expect(m.html).toContain("Acme &#60;Inc&#62;");
    expect(m.html).not.toContain("Acme <Inc>");
    expect(m.slack.text).toContain("Rival overtook Acme");
    expect(JSON.stringify(m.slack.blocks)).toContain("<https://beacon.example.com/alerts|Open in Beacon>");
    expect(m.webhook).toEqual({
      type: "alert.fired",
      timestamp: "2026-11-30T08:00:00.000Z",
      data: expect.objectContaining({ firingId: "f1", rule: firing.rule, brand: firing.brand, facts: firing.firing.facts, url: "https://beacon.example.com/alerts" }),
    });
  });

  it("survives facts that are not an object", () => {
    const m = renderFiring({ ...firing, firing: { ...firing.firing, facts: null } });
    expect(m.webhook.data.facts).toEqual({});
  });
});

describe("renderTest", () => {
  it("names the channel and is an alert.test event", () => {
    const m = renderTest({ channel: { id: "c1", name: "Ops" }, appUrl: "http://localhost:3000", at: new Date(0) });
    expect(m.text).toContain('"Ops"');
    expect(m.webhook).toMatchObject({ type: "alert.test", data: { channel: { id: "c1", name: "Ops" } } });
  });
});

describe("renderDigest", () => {
  const kpi = (value: number | null, low: number | null, high: number | null, n: number, change: number | null, test: DigestKpi["test"] = null): DigestKpi => ({
    current: { value, n, low, high },
    previous: { value: null, n: 38, low: null, high: null },
    change,
    test,
  });
  it("shows value, interval, n, the change and whether it is beyond noise, per brand", () => {
    const m = renderDigest({
      workspace: { id: "w", name: "Agency" },
      week: { from: "2026-11-23", to: "2026-11-29" },
      brands: [
        {
          id: "b",
          name: "Acme",
          captures: 40,
          previousCaptures: 38,
          visibility: kpi(0.625, 0.47, 0.76, 40, -0.05, { p: 0.412, confidence: 0.95 }),
          shareOfVoice: kpi(0.4, 0.3, 0.5, 40, null),
          averagePosition: kpi(1.8, 1.5, 2.1, 25, 0.3, { p: 0.0004, confidence: 0.95 }),
        },
        { id: "c", name: "Bolt", captures: 3, previousCaptures: 1, visibility: kpi(1, 0.44, 1, 3, 0.2), shareOfVoice: kpi(0.5, null, null, 3, 0), averagePosition: kpi(1, null, null, 1, 0) },
      ],
      appUrl: "https://b.example",
      at: new Date("2026-11-30T08:00:00Z"),
    });
    expect(m.subject).toBe("Beacon weekly digest for Agency: 2026-11-23 to 2026-11-29");
    expect(m.text).toMatch(/Acme: visibility\s+62\.5 % \(95 % 47 %–76 %\), n = 40; −5 pp vs the week before \(n = 38\), within sampling noise at 95 % confidence \(p = 0\.412\)/);
    expect(m.text).toMatch(/Acme: share of voice\s+40 % \(95 % 30 %–50 %\), n = 40; no value the week before/);
    expect(m.text).toMatch(/Acme: average position\s+1\.80 \(95 % 1\.50–2\.10\), n = 25; \+0\.30 vs the week before \(n = 38\), beyond noise: more than sampling noise explains \(p < 0\.001\)/);
    expect(m.text).toMatch(/Bolt: visibility\s+100 % \(95 % 44 %–100 %\), n = 3; \+20 pp vs the week before \(n = 38\), too few answers to test/);
    // Slack carries the same words.
    expect(JSON.stringify(m.slack.blocks)).toContain("within sampling noise at 95 % confidence (p = 0.412)");
    expect(m.webhook.type).toBe("digest.weekly");
  });

  it("says so when there is no brand", () => {
    const m = renderDigest({ workspace: { id: "w", name: "Empty" }, week: { from: "a", to: "b" }, brands: [], appUrl: "x", at: new Date(0) });
    expect(m.text).toContain("tracks no brand yet");
  });
});
