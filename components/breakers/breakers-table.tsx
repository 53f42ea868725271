"use client";
// The circuit breakers table of the Jobs page (a workspace's connections) and the Instance page
// (every connection). A breaker is shared by every workspace on its connection and model, so
// only operators (`canForce`) get the buttons that force it.
import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { toast } from "@/lib/browser/toast";
import { Button } from "@/components/ui/button";
import { Badge } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { actionsColumn, type Column } from "@/components/ui/table-columns";
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

  const columns: Column<BreakerView>[] = [
    { id: "connection", header: "Connection", className: "font-medium text-slate-900", cell: (b) => b.connection },
    { id: "model", header: "Model", className: "whitespace-nowrap font-mono text-xs text-slate-700", cell: (b) => b.model },
    {
      id: "state",
      header: "State",
      cell: (b) => (
        <span className="flex flex-wrap items-center gap-1">
          <Badge tone={tone[b.status]}>{b.status.replace("_", "-")}</Badge>
          {b.forced && <Badge>forced</Badge>}
          {b.status !== "closed" && <span className="text-xs text-slate-500">for {formatAge(b.openSeconds * 1000)}</span>}
          {b.openTooLong && <Badge tone="red">open over 5 min</Badge>}
        </span>
      ),
    },
    {
      id: "recent",
      header: "Recent calls",
      className: "text-xs text-slate-600",
      cell: (b) => `${b.window.failures} of ${b.window.calls} failed (opens at ${formatPct(b.window.thresholdPct / 100)} after ${b.window.minCalls})`,
    },
    { id: "counts", header: "OK / failed / slow", numeric: true, className: "text-slate-700", cell: (b) => `${b.successCount} / ${b.failureCount} / ${b.slowCallCount}` },
    { id: "short-circuited", header: "Short-circuited", numeric: true, className: "text-slate-700", cell: (b) => b.shortCircuitCount },
    ...(canForce
      ? [
          actionsColumn<BreakerView>((b) =>
            b.forced ? (
              button(b, null, "Release")
            ) : (
              <>
                {button(b, "open", "Force open")}
                {b.status !== "closed" && button(b, "closed", "Force closed")}
              </>
            ),
          ),
        ]
      : []),
  ];
  return <DataTable rows={breakers} columns={columns} rowKey={(b) => `${b.connectionId}:${b.model}`} density="dense" />;
}
