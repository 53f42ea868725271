"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { listAlertDeliveriesAction } from "@/lib/actions/alert-channels";
import type { DeliveryListInput } from "@/lib/alerts/channel-schemas";
import { unwrap } from "@/lib/browser/action-result";

export const deliveriesKey = (filter: DeliveryListInput) => ["alert-deliveries", filter] as const;

/** The log, polled every 2 s while any delivery of the workspace is still pending. */
export function useDeliveriesQuery(filter: DeliveryListInput) {
  return useQuery({
    queryKey: deliveriesKey(filter),
    queryFn: async () => unwrap(await listAlertDeliveriesAction(filter)),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.pending ? 2_000 : false),
  });
}

export type DeliveryLogRow = NonNullable<ReturnType<typeof useDeliveriesQuery>["data"]>["rows"][number];
