"use client";
import { useQuery } from "@tanstack/react-query";
import { grantedConnectionsAction } from "@/lib/actions/settings";
import { unwrap } from "@/lib/browser/action-result";

export const grantedConnectionsKey = ["granted-connections"] as const;

/** The connections operators let this workspace use, with their models (admins only). */
export function useGrantedConnectionsQuery() {
  return useQuery({ queryKey: grantedConnectionsKey, queryFn: async () => unwrap(await grantedConnectionsAction()) });
}

export type GrantedConnection = NonNullable<ReturnType<typeof useGrantedConnectionsQuery>["data"]>[number];
