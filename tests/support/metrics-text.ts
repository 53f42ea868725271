// Reads the Prometheus text format that /api/metrics serves (lib/metrics/collect.ts), so tests
// can look a series up by name and labels instead of matching text.

export type MetricSample = { name: string; labels: Record<string, string>; value: number };

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

const unescape = (value: string) => value.replace(/\\(["\\n])/g, (_m, c: string) => (c === "n" ? "\n" : c));

/** Every sample line of an exposition; comment lines (# HELP, # TYPE) are skipped. */
export function parseMetrics(text: string): MetricSample[] {
  const samples: MetricSample[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim() || line.startsWith("#")) continue;
    const match = line.match(SAMPLE);
    if (!match) throw new Error(`not a metrics sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? "").matchAll(LABEL)) labels[key!] = unescape(value!);
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample with this name and (at least) these labels; throws if not exactly one. */
export function metricValue(samples: MetricSample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length !== 1) throw new Error(`expected one sample ${name}${JSON.stringify(labels)}, found ${found.length}`);
  return found[0]!.value;
}
