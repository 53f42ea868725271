"use client";
import { useQuery } from "@tanstack/react-query";
import { BreakersTable } from "@/components/breakers/breakers-table";
import { Card } from "@/components/ui/card";
import { breakersQuery } from "./queries";

/** The breakers of the connections and models this workspace's providers use. */
export function BreakersCard() {
  const query = useQuery({ ...breakersQuery, refetchInterval: 2000 });
  return (
    <Card className="mb-6 overflow-hidden">
      <div className="border-b border-slate-200 px-4 py-3">
        <h2 className="text-sm font-semibold text-slate-900">Circuit breakers</h2>
        <p className="text-xs text-slate-500">
          One per connection and model, shared with every workspace that uses it. While one is open its captures wait (postponed) instead of failing; one probe call decides when it closes.
          {query.data && !query.data.canForce && " Only operators can force a breaker open or closed."}
        </p>
      </div>
      {query.isPending ? (
        <p className="p-4 text-sm text-slate-500">Loading…</p>
      ) : query.isError ? (
        <p className="p-4 text-sm text-red-600">Could not load breakers: {query.error.message}</p>
      ) : !query.data.breakers.length ? (
        <p className="p-4 text-sm text-slate-500">This workspace has no providers yet.</p>
      ) : (
        <BreakersTable breakers={query.data.breakers} canForce={query.data.canForce} invalidates={[breakersQuery.queryKey]} />
      )}
    </Card>
  );
}
