// What a channel is sent, rendered once per delivery and stored in AlertDelivery.message, so the
// delivery log shows exactly what went out and a retry sends the same thing. Pure: no I/O.
import { judgeDelta } from "@/lib/analytics/delta-verdict";
import { formatNumber, formatPosition, formatPValue, formatSignedNumber, formatSignedPoints, MISSING, percentText } from "@/lib/format";

export type WebhookEventType = "alert.fired" | "alert.test" | "digest.weekly";

export type AlertMessage = {
  subject: string;
  text: string;
  html?: string;
  slack: { text: string; blocks?: unknown[] };
  webhook: { type: WebhookEventType; timestamp: string; data: Record<string, unknown> };
  /** Digests only: one per channel and week (lib/alerts/digest.ts). */
  digestKey?: string;
};

type Facts = Record<string, unknown>;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function formatValue(value: unknown): string {
  if (typeof value === "number") return formatNumber(value);
  if (value === null || value === undefined) return MISSING;
  if (Array.isArray(value)) return value.map(formatValue).join(" – ");
  if (typeof value === "object") {
    return Object.entries(value as Facts)
      .map(([k, v]) => `${k} ${formatValue(v)}`)
      .join(", ");
  }
  return String(value);
}

/** The facts of a firing as label/value rows, in the order the rule wrote them. */
export function factRows(facts: Facts): [string, string][] {
  return Object.entries(facts).map(([key, value]) => [key, formatValue(value)]);
}

function textBlock(title: string, lines: string[], rows: [string, string][], link: string): string {
  const width = Math.max(0, ...rows.map(([k]) => k.length));
  return [title, "", ...lines, ...(rows.length ? ["", ...rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`)] : []), "", link, ""].join("\n");
}

function htmlBlock(title: string, lines: string[], rows: [string, string][], link: string): string {
  const table = rows.length
    ? `<table cellpadding="4" style="border-collapse:collapse">${rows.map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join("")}</table>`
    : "";
  return `<h2>${escapeHtml(title)}</h2>${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("")}${table}<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`;
}

function slackBlocks(title: string, lines: string[], rows: [string, string][], link: string) {
  return [
    { type: "header", text: { type: "plain_text", text: title.slice(0, 150) } },
    ...(lines.length ? [{ type: "section", text: { type: "mrkdwn", text: lines.join("\n").slice(0, 3000) } }] : []),
    ...(rows.length ? [{ type: "section", fields: rows.slice(0, 10).map(([k, v]) => ({ type: "mrkdwn", text: `*${k}*\n${v}`.slice(0, 2000) })) }] : []),
    { type: "context", elements: [{ type: "mrkdwn", text: `<${link}|Open in Beacon>` }] },
  ];
}

function assemble(type: WebhookEventType, title: string, lines: string[], rows: [string, string][], link: string, at: Date, data: Record<string, unknown>): AlertMessage {
  return {
    subject: title,
    text: textBlock(title, lines, rows, link),
    html: htmlBlock(title, lines, rows, link),
    slack: { text: `${title}\n${lines.join("\n")}`.trim(), blocks: slackBlocks(title, lines, rows, link) },
    webhook: { type, timestamp: at.toISOString(), data: { ...data, url: link } },
  };
}

export type FiringToRender = {
  firing: { id: string; title: string; summary: string; facts: unknown; firedAt: Date };
  rule: { id: string; name: string; kind: string };
  brand: { id: string; name: string } | null;
  appUrl: string;
};

export function renderFiring({ firing, rule, brand, appUrl }: FiringToRender): AlertMessage {
  const facts = firing.facts && typeof firing.facts === "object" && !Array.isArray(firing.facts) ? (firing.facts as Facts) : {};
  const rows: [string, string][] = [["rule", rule.name], ...(brand ? [["brand", brand.name] as [string, string]] : []), ...factRows(facts)];
  const link = `${appUrl.replace(/\/$/, "")}/alerts`;
  return assemble("alert.fired", firing.title, [firing.summary], rows, link, firing.firedAt, {
    firingId: firing.id,
    title: firing.title,
    summary: firing.summary,
    rule: { id: rule.id, name: rule.name, kind: rule.kind },
    brand,
    facts,
    firedAt: firing.firedAt.toISOString(),
  });
}

export function renderTest({ channel, appUrl, at }: { channel: { id: string; name: string }; appUrl: string; at: Date }): AlertMessage {
  const title = `Test message from Beacon`;
  const line = `This is a test of the alert channel "${channel.name}". If you can read it, alerts will reach you here.`;
  const link = `${appUrl.replace(/\/$/, "")}/alerts/deliveries`;
  return assemble("alert.test", title, [line], [], link, at, { channel });
}

export type DigestBrand = {
  id: string;
  name: string;
  captures: number;
  previousCaptures: number;
  /** Each with this week's value, n and 95 % interval, and the change from the week before. */
  visibility: DigestKpi;
  shareOfVoice: DigestKpi;
  averagePosition: DigestKpi;
};
type Estimate = { value: number | null; n: number; low: number | null; high: number | null };
/** A KPI of the dashboards' kpis chart: `test` is its change's test (lib/analytics/kpi-changes.ts), null when a week has too few answers. */
export type DigestKpi = { current: Estimate; previous: Estimate; change: number | null; test: { p: number; confidence: number } | null };

/** What the change means, in the words of the alerts' own messages: beyond noise or within it, with its p. */
function verdictText(kpi: DigestKpi): string {
  const verdict = judgeDelta(kpi.change, kpi.test, "neither");
  if (verdict.kind === "untested") return "too few answers to test";
  if (verdict.kind === "noise") return `within sampling noise at ${percentText(kpi.test!.confidence)} confidence (${formatPValue(verdict.p)})`;
  if (verdict.kind === "beyond") return `beyond noise: more than sampling noise explains (${formatPValue(verdict.p)})`;
  return "";
}

function kpiLine(kpi: DigestKpi, show: (v: number | null) => string, changeUnit: "pp" | ""): string {
  const c = kpi.current;
  const interval = c.low !== null && c.high !== null ? ` (95 % ${show(c.low)}–${show(c.high)})` : "";
  if (kpi.change === null) return `${show(c.value)}${interval}, n = ${c.n}; no value the week before`;
  const delta = changeUnit === "pp" ? `${formatSignedPoints(kpi.change)} pp` : formatSignedNumber(kpi.change);
  return `${show(c.value)}${interval}, n = ${c.n}; ${delta} vs the week before (n = ${kpi.previous.n}), ${verdictText(kpi)}`;
}

export function renderDigest({ workspace, week, brands, appUrl, at }: { workspace: { id: string; name: string }; week: { from: string; to: string }; brands: DigestBrand[]; appUrl: string; at: Date }): AlertMessage {
  const title = `Beacon weekly digest for ${workspace.name}: ${week.from} to ${week.to}`;
  const lines = brands.length ? [`The week's numbers per brand, with the week before for comparison.`] : [`This workspace tracks no brand yet.`];
  const rows: [string, string][] = brands.flatMap((b) => [
    [`${b.name}: answers`, `${b.captures} (week before ${b.previousCaptures})`],
    [`${b.name}: visibility`, kpiLine(b.visibility, percentText, "pp")],
    [`${b.name}: share of voice`, kpiLine(b.shareOfVoice, percentText, "pp")],
    [`${b.name}: average position`, kpiLine(b.averagePosition, formatPosition, "")],
  ]);
  const link = `${appUrl.replace(/\/$/, "")}/analytics`;
  return assemble("digest.weekly", title, lines, rows, link, at, { workspace, week, brands });
}
