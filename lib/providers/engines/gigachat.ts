import { apiConnection, defineEngine } from "@/lib/providers/engine";

// GigaChat bills roubles per token, input and output alike: GigaChat-2-Pro 500 RUB per 1M tokens
// (Sber's pay-as-you-go list price for businesses, developers.sber.ru/docs/ru/gigachat/tariffs,
// as last seen in 2025; new tariffs apply from 2026-02-01 and could not be checked here),
// converted at 1 USD = 80 RUB: $6.25 per 1M. Precached prompt tokens are deducted from what
// GigaChat bills, hence cached 0. No search: the adapter never searches (lib/providers/gigachat.ts).
const listPrice = { model: "GigaChat-2-Pro", prices: { input: 6_250_000, output: 6_250_000, cached: 0, reasoning: 6_250_000, search: 0 } };

export const gigachatEngine = defineEngine({
  name: "gigachat",
  label: "GigaChat",
  cliName: "gigachat",
  writesAnswers: true,
  envKeys: ["GIGACHAT_CREDENTIALS", "GIGACHAT_SCOPE", "GIGACHAT_AUTH_URL", "GIGACHAT_BASE_URL", "GIGACHAT_CA_CERT_FILE"],
  listPrice,
  defaultConnections: [apiConnection("GigaChat", "GigaChat API", listPrice, "off")],
});
