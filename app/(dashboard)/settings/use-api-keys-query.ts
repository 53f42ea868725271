"use client";
import { useQuery } from "@tanstack/react-query";
import { listApiKeysAction } from "@/lib/actions/api-keys";
import { unwrap } from "@/lib/browser/action-result";

export const apiKeysKey = ["api-keys"] as const;

/** The workspace's keys, whether the signed-in member may revoke each, and the scopes they may create. */
export function useApiKeysQuery() {
  return useQuery({ queryKey: apiKeysKey, queryFn: async () => unwrap(await listApiKeysAction()) });
}

export type ApiKeyRow = NonNullable<ReturnType<typeof useApiKeysQuery>["data"]>["keys"][number];
