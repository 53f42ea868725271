"use client";
import { useQuery } from "@tanstack/react-query";
import { listProvidersAction, workspaceSettingsAction } from "@/lib/actions/settings";
import { unwrap } from "@/lib/browser/action-result";

export const providersKey = ["providers"] as const;
export const workspaceSettingsKey = ["workspace-settings"] as const;

export function useProvidersQuery() {
  return useQuery({ queryKey: providersKey, queryFn: async () => unwrap(await listProvidersAction()) });
}

export function useWorkspaceSettingsQuery() {
  return useQuery({ queryKey: workspaceSettingsKey, queryFn: async () => unwrap(await workspaceSettingsAction()) });
}

export type ProviderRow = NonNullable<ReturnType<typeof useProvidersQuery>["data"]>[number];
