"use client";
import { useQuery } from "@tanstack/react-query";
import { listAlertChannelsAction } from "@/lib/actions/alert-channels";
import { unwrap } from "@/lib/browser/action-result";

export const channelsKey = ["alert-channels"] as const;

export function useChannelsQuery() {
  return useQuery({ queryKey: channelsKey, queryFn: async () => unwrap(await listAlertChannelsAction()) });
}

export type ChannelRow = NonNullable<ReturnType<typeof useChannelsQuery>["data"]>["channels"][number];
