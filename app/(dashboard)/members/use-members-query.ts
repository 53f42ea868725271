"use client";
import { useQuery } from "@tanstack/react-query";
import { listMembersAction } from "@/lib/actions/members";
import { unwrap } from "@/lib/browser/action-result";

export const membersKey = ["members"] as const;

export function useMembersQuery() {
  return useQuery({ queryKey: membersKey, queryFn: async () => unwrap(await listMembersAction()) });
}
