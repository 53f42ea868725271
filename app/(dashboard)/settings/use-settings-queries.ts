"use client";
import { useQuery } from "@tanstack/react-query";
import { listApiKeysAction, listProvidersAction, workspaceSettingsAction } from "@/lib/actions/settings";
import { unwrap } from "@/lib/client/action-result";

export const providersKey = ["providers"] as const;
export const workspaceSettingsKey = ["workspace-settings"] as const;
export const apiKeysKey = ["api-keys"] as const;

export function useProvidersQuery() {
  return useQuery({ queryKey: providersKey, queryFn: async () => unwrap(await listProvidersAction()) });
}

export function useWorkspaceSettingsQuery() {
  return useQuery({ queryKey: workspaceSettingsKey, queryFn: async () => unwrap(await workspaceSettingsAction()) });
}

export function useApiKeysQuery() {
  return useQuery({ queryKey: apiKeysKey, queryFn: async () => unwrap(await listApiKeysAction()) });
}

export type ProviderRow = NonNullable<ReturnType<typeof useProvidersQuery>["data"]>[number];
export type ApiKeyRow = NonNullable<ReturnType<typeof useApiKeysQuery>["data"]>[number];
