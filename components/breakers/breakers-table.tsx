"use client";
// The circuit breakers table of the Jobs page (a workspace's connections) and the Instance page
// (every connection). A breaker is shared by every workspace on its connection and model, so
// only operators (`canForce`) get the buttons that force it.
import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Badge } from "@/components/ui/card";
import { forceBreakerAction } from "@/lib/actions/admin";
import type { BreakerView } from "@/lib/breaker/queries";
import { unwrap } from "@/lib/browser/action-result";
import { formatAge, formatPct } from "@/lib/format";

const tone = { closed: "green", open: "red", half_open: "amber" } as const;

type Force = { connectionId: string; model: string; forced: "open" | "closed" | null };

export function BreakersTable({ breakers, canForce, invalidates }: { breakers: BreakerView[]; canForce: boolean; invalidates: QueryKey[] }) {
  const queryClient = useQueryClient();
  const force = useMutation({
    mutationFn: async (input: Force) => unwrap(await forceBreakerAction(input)),
    onSuccess: async () => {
      toast.success("Breaker updated");
      await Promise.all(invalidates.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
    onError: (e) => toast.error(e.message),
  });
  const button = (b: BreakerView, forced: Force["forced"], label: string) => (
    <Button
      variant="ghost"
      size="sm"
      aria-label={`${label}: ${b.connection} ${b.model}`}
      disabled={force.isPending}
      onClick={() => force.mutate({ connectionId: b.connectionId, model: b.model, forced })}
    >
      {label}
    </Button>
  );

  return (
    <table className="min-w-full text-sm">
      <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
        <tr>
          <th scope="col" className="px-4 py-2">Connection</th>
          <th scope="col" className="px-4 py-2">Model</th>
          <th scope="col" className="px-4 py-2">State</th>
          <th scope="col" className="px-4 py-2">Recent calls</th>
          <th scope="col" className="px-4 py-2 text-right">OK / failed / slow</th>
          <th scope="col" className="px-4 py-2 text-right">Short-circuited</th>
          {canForce && <th scope="col" className="px-4 py-2"><span className="sr-only">Actions</span></th>}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {breakers.map((b) => (
          <tr key={`${b.connectionId}:${b.model}`}>
            <td className="px-4 py-2 font-medium text-slate-900">{b.connection}</td>
            <td className="whitespace-nowrap px-4 py-2 font-mono text-xs text-slate-700">{b.model}</td>
            <td className="px-4 py-2">
              <span className="flex flex-wrap items-center gap-1">
                <Badge tone={tone[b.status]}>{b.status.replace("_", "-")}</Badge>
                {b.forced && <Badge>forced</Badge>}
                {b.status !== "closed" && <span className="text-xs text-slate-500">for {formatAge(b.openSeconds * 1000)}</span>}
                {b.openTooLong && <Badge tone="red">open over 5 min</Badge>}
              </span>
            </td>
            <td className="px-4 py-2 text-xs text-slate-600">
              {b.window.failures} of {b.window.calls} failed (opens at {formatPct(b.window.thresholdPct / 100)} after {b.window.minCalls})
            </td>
            <td className="px-4 py-2 text-right tabular-nums text-slate-700">
              {b.successCount} / {b.failureCount} / {b.slowCallCount}
            </td>
            <td className="px-4 py-2 text-right tabular-nums text-slate-700">{b.shortCircuitCount}</td>
            {canForce && (
              <td className="whitespace-nowrap px-4 py-2 text-right">
                {b.forced ? (
                  button(b, null, "Release")
                ) : (
                  <>
                    {button(b, "open", "Force open")}
                    {b.status !== "closed" && button(b, "closed", "Force closed")}
                  </>
                )}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
