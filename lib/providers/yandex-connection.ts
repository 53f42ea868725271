// The connection both Yandex adapters (yandex-search.ts, yandexgpt.ts) share: one API key and one
// folder (YANDEX_API_KEY, YANDEX_FOLDER_ID), each adapter with its own base URL.
import { z } from "zod";
import { apiKeyVariable } from "@/lib/providers/engine";
import { credentialedAdapter } from "@/lib/providers/api-engine";
import type { ProviderAdapter, ProviderRequest, ProviderResponse } from "@/lib/providers/types";

/**
 * Yandex Cloud's two engines, the Search API's generative response and the AI Studio models
 * (YandexGPT, Alice AI), share one API key (sent as `Authorization: Api-Key <key>`) and the
 * folder it bills.
 */
export const yandexAccountVariables = { YANDEX_API_KEY: apiKeyVariable, YANDEX_FOLDER_ID: z.string().min(1).optional() };

export type YandexConnection = { apiKey?: string; folderId?: string; baseURL?: string };
export type ConfiguredYandexConnection = YandexConnection & { apiKey: string; folderId: string };

function isConfigured(connection: YandexConnection): connection is ConfiguredYandexConnection {
  return Boolean(connection.apiKey && connection.folderId);
}

/** Both Yandex adapters: not configured without both key and folder. */
export const yandexAdapter = (
  name: ProviderAdapter["name"],
  provider: string,
  call: (connection: ConfiguredYandexConnection, request: ProviderRequest) => Promise<ProviderResponse>,
  load?: () => Promise<unknown>,
) => credentialedAdapter({ name, provider, configured: isConfigured, unconfigured: "YANDEX_API_KEY and YANDEX_FOLDER_ID must be set", call, load });
