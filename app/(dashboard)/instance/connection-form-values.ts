// Maps a provider connection to the text the form shows and back. The form speaks in the
// units people know from pricing pages (USD per 1M tokens, USD per 1,000 searches, seconds,
// percentages); the schema and database keep integer micro-dollars, milliseconds and fractions.
import type { ConnectionInput } from "@/lib/providers/schemas";
import type { EngineChoice } from "@/lib/providers/labels";
import { DEFAULT_BREAKER_SETTINGS, DEFAULT_CALL_LIMITS } from "@/lib/providers/limits";
import { openAICompatibleSettingsSchema } from "@/lib/providers/openai-compatible-settings";
import { simulatorSettingsSchema, type SimulatorSettings } from "@/lib/providers/simulator-settings";
import { formatDecimal, parseDecimal } from "@/lib/validation/decimal";
import type { ConnectionRow } from "./use-instance-query";

type NumericField = Exclude<{ [K in keyof ConnectionInput]-?: ConnectionInput[K] extends number ? K : never }[keyof ConnectionInput], undefined>;
type SimulatorNumericField = Exclude<keyof SimulatorSettings, "style">;

/**
 * `places`: decimals the form accepts. The parsed value counts 10^-places units of what the form
 * shows, which for prices is exactly micro-dollars (per 1M tokens, or per search call when shown
 * per 1,000 searches) and for timeouts is milliseconds. Rates are percentages of a fraction.
 */
type Unit = { places: number; percent?: boolean };

const numericUnits: Record<NumericField, Unit> = {
  inputPricePerMTokMicros: { places: 6 },
  outputPricePerMTokMicros: { places: 6 },
  cachedPricePerMTokMicros: { places: 6 },
  reasoningPricePerMTokMicros: { places: 6 },
  searchPriceMicros: { places: 3 },
  maxConcurrency: { places: 0 },
  maxAttempts: { places: 0 },
  unknownRetries: { places: 0 },
  timeoutMs: { places: 3 },
  maxOutputTokens: { places: 0 },
  maxSearchCalls: { places: 0 },
  breakerWindowSize: { places: 0 },
  breakerMinCalls: { places: 0 },
  breakerFailureRatePct: { places: 0 },
  breakerOpenSeconds: { places: 0 },
  breakerSlowCallMs: { places: 0 },
  breakerProbeTimeoutMs: { places: 0 },
};

const simulatorUnits: Record<SimulatorNumericField, Unit> = {
  latencyMinMs: { places: 0 },
  latencyMaxMs: { places: 0 },
  errorRate: { places: 4, percent: true },
  permanentErrorRate: { places: 4, percent: true },
  timeoutRate: { places: 4, percent: true },
  noAnswerRate: { places: 4, percent: true },
};

// A percentage with 4 decimals counts millionths of the fraction.
const PERCENT_UNITS = 1_000_000;

function toText(value: number, unit: Unit): string {
  return formatDecimal(unit.percent ? Math.round(value * PERCENT_UNITS) : value, unit.places);
}

function fromText(text: string, unit: Unit): { value: number; error?: string } {
  const parsed = parseDecimal(text, unit.places);
  if (parsed.error || !unit.percent) return parsed;
  if (parsed.value > PERCENT_UNITS) return { value: NaN, error: "Enter a percentage from 0 to 100" };
  return { value: parsed.value / PERCENT_UNITS };
}

const NEW_CONNECTION: Omit<ConnectionInput, "simulator" | "openaiCompatible"> = {
  name: "",
  adapter: "simulator",
  models: [],
  enabled: true,
  grantedToAll: false,
  inputPricePerMTokMicros: 0,
  outputPricePerMTokMicros: 0,
  cachedPricePerMTokMicros: 0,
  reasoningPricePerMTokMicros: 0,
  searchPriceMicros: 0,
  maxConcurrency: 4,
  maxAttempts: 3,
  unknownRetries: 1,
  timeoutMs: 120_000,
  ...DEFAULT_CALL_LIMITS,
  ...DEFAULT_BREAKER_SETTINGS,
};

type FormChoices = Pick<ConnectionInput, "name" | "adapter" | "enabled" | "grantedToAll" | "breakerSlowCallIsFailure">;

/** What the form starts with; numbers are text keyed by their field path, in the form's units. */
export type ConnectionFormDefaults = FormChoices & {
  models: string;
  text: Record<string, string>;
  simulatorStyle: SimulatorSettings["style"];
  /** An OpenAI-compatible connection's server and key variable, as saved (empty for others). */
  openaiCompatible: { baseURL: string; apiKeyEnv: string };
};

/** `engines`: the server's (a connection whose engine is not among them opens as the simulator's). */
export function connectionFormDefaults(engines: EngineChoice[], connection?: ConnectionRow): ConnectionFormDefaults {
  const base = connection ?? NEW_CONNECTION;
  // Settings saved before a field existed (or for another adapter) fall back to the simulator's defaults.
  const parsed = simulatorSettingsSchema.safeParse(connection?.adapter === "simulator" ? connection.settings : {});
  const simulator = parsed.success ? parsed.data : simulatorSettingsSchema.parse({});
  const text: Record<string, string> = {};
  for (const [field, unit] of Object.entries(numericUnits)) text[field] = toText(base[field as NumericField], unit);
  for (const [field, unit] of Object.entries(simulatorUnits)) text[`simulator.${field}`] = toText(simulator[field as SimulatorNumericField], unit);
  const { name, enabled, grantedToAll, breakerSlowCallIsFailure } = base;
  // The column is text: a connection whose engine this code no longer has opens as the simulator's.
  const adapter = engines.some((e) => e.name === base.adapter) ? base.adapter : NEW_CONNECTION.adapter;
  const compatible = openAICompatibleSettingsSchema.partial().safeParse(connection?.adapter === "openai_compatible" ? connection.settings : {});
  const openaiCompatible = { baseURL: compatible.data?.baseURL ?? "", apiKeyEnv: compatible.data?.apiKeyEnv ?? "" };
  return { name, adapter, enabled, grantedToAll, breakerSlowCallIsFailure, models: base.models.join("\n"), text, simulatorStyle: simulator.style, openaiCompatible };
}

/** The allowlist as typed: one model per line or separated by commas, blanks dropped. */
export const parseModels = (text: string) =>
  text
    .split(/[\n,]/)
    .map((m) => m.trim())
    .filter(Boolean);

/**
 * Reads the submitted form. Text that is not a number in the field's unit becomes NaN (so the
 * schema refuses it as well) plus a message keyed by the same path the schema uses.
 */
export function readConnectionForm(data: FormData): { connection: ConnectionInput; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const read = (path: string, unit: Unit) => {
    const { value, error } = fromText(String(data.get(path) ?? ""), unit);
    if (error) errors[path] = error;
    return value;
  };
  const numbers = Object.fromEntries(Object.entries(numericUnits).map(([field, unit]) => [field, read(field, unit)])) as Record<NumericField, number>;
  const adapter = String(data.get("adapter")) as ConnectionInput["adapter"];
  const simulator =
    adapter === "simulator"
      ? {
          style: String(data.get("simulator.style")) as SimulatorSettings["style"],
          ...(Object.fromEntries(Object.entries(simulatorUnits).map(([field, unit]) => [field, read(`simulator.${field}`, unit)])) as Record<SimulatorNumericField, number>),
        }
      : undefined;
  // An empty key variable means "no key" (a local server), not an invalid name.
  const apiKeyEnv = String(data.get("openaiCompatible.apiKeyEnv") ?? "").trim();
  const openaiCompatible = adapter === "openai_compatible" ? { baseURL: String(data.get("openaiCompatible.baseURL") ?? ""), ...(apiKeyEnv ? { apiKeyEnv } : {}) } : undefined;
  const connection: ConnectionInput = {
    name: String(data.get("name") ?? ""),
    adapter,
    models: parseModels(String(data.get("models") ?? "")),
    enabled: data.get("enabled") === "on",
    grantedToAll: data.get("grantedToAll") === "on",
    breakerSlowCallIsFailure: data.get("breakerSlowCallIsFailure") === "on",
    ...numbers,
    simulator,
    openaiCompatible,
  };
  return { connection, errors };
}
