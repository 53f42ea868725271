"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Badge, Card } from "@/components/ui/card";
import { breakersAction, forceBreakerAction } from "@/lib/actions/admin";
import { unwrap } from "@/lib/client/action-result";

const breakersKey = ["breakers"] as const;

const tone = { closed: "green", open: "red", half_open: "amber" } as const;

function duration(seconds: number) {
  return seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
}

/** Each provider's circuit breaker: state, its call window, counts, and admin overrides. */
export function BreakersCard() {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: breakersKey, queryFn: async () => unwrap(await breakersAction()), refetchInterval: 2000 });
  const force = useMutation({
    mutationFn: async (input: { providerConfigId: string; forced: "open" | "closed" | null }) => unwrap(await forceBreakerAction(input)),
    onSuccess: async () => {
      toast.success("Breaker updated");
      await queryClient.invalidateQueries({ queryKey: breakersKey });
    },
    onError: (e) => toast.error(e.message),
  });
  const breakers = query.data ?? [];
  return (
    <Card className="mb-6 overflow-hidden">
      <div className="border-b border-slate-200 px-4 py-3">
        <h2 className="text-sm font-semibold text-slate-900">Circuit breakers</h2>
        <p className="text-xs text-slate-500">While a provider&apos;s breaker is open its captures wait (postponed) instead of failing; one probe call decides when it closes.</p>
      </div>
      {query.isPending ? (
        <p className="p-4 text-sm text-slate-500">Loading…</p>
      ) : query.isError ? (
        <p className="p-4 text-sm text-red-600">Could not load breakers: {query.error.message}</p>
      ) : (
        <table className="min-w-full text-sm">
          <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
            <tr>
              <th scope="col" className="px-4 py-2">Provider</th>
              <th scope="col" className="px-4 py-2">State</th>
              <th scope="col" className="px-4 py-2">Recent calls</th>
              <th scope="col" className="px-4 py-2 text-right">OK / failed / slow</th>
              <th scope="col" className="px-4 py-2 text-right">Short-circuited</th>
              <th scope="col" className="px-4 py-2"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {breakers.map((b) => (
              <tr key={b.providerConfigId}>
                <td className="px-4 py-2 font-medium text-slate-900">{b.provider}</td>
                <td className="px-4 py-2">
                  <span className="flex flex-wrap items-center gap-1">
                    <Badge tone={tone[b.status]}>{b.status.replace("_", "-")}</Badge>
                    {b.forced && <Badge>forced</Badge>}
                    {b.status !== "closed" && <span className="text-xs text-slate-500">for {duration(b.openSeconds)}</span>}
                    {b.openTooLong && <Badge tone="red">open over 5 min</Badge>}
                  </span>
                </td>
                <td className="px-4 py-2 text-xs text-slate-600">
                  {b.window.failures} of {b.window.calls} failed (opens at {b.window.thresholdPct} % after {b.window.minCalls})
                </td>
                <td className="px-4 py-2 text-right tabular-nums text-slate-700">{b.successCount} / {b.failureCount} / {b.slowCallCount}</td>
                <td className="px-4 py-2 text-right tabular-nums text-slate-700">{b.shortCircuitCount}</td>
                <td className="whitespace-nowrap px-4 py-2 text-right">
                  {b.forced ? (
                    <Button variant="ghost" size="sm" onClick={() => force.mutate({ providerConfigId: b.providerConfigId, forced: null })}>Release</Button>
                  ) : (
                    <>
                      <Button variant="ghost" size="sm" onClick={() => force.mutate({ providerConfigId: b.providerConfigId, forced: "open" })}>Force open</Button>
                      {b.status !== "closed" && (
                        <Button variant="ghost" size="sm" onClick={() => force.mutate({ providerConfigId: b.providerConfigId, forced: "closed" })}>Force closed</Button>
                      )}
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
