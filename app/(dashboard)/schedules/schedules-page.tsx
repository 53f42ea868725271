"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "@/components/ui/link";
import { useState } from "react";
import { toast } from "@/lib/browser/toast";
import { StatusBadge } from "@/components/checks/status";
import { Button } from "@/components/ui/button";
import { useConfirm } from "@/components/ui/confirm-dialog";
import { Badge, Card, EmptyState, PageHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { actionsColumn, type Column } from "@/components/ui/table-columns";
import { deleteScheduleAction, pauseScheduleAction, resumeScheduleAction } from "@/lib/actions/schedules";
import type { PromptSelection } from "@/lib/checks/schemas";
import { unwrap } from "@/lib/browser/action-result";
import { formatUtc, formatWhen } from "@/lib/format";
import { describeCadence } from "@/lib/schedules/next-run";
import { ScheduleFormDialog, type ScheduleChoices } from "./schedule-form-dialog";
import { schedulesKey, useSchedulesQuery, type ScheduleRow } from "./use-schedules-query";

function describePrompts(selection: PromptSelection) {
  if (selection.mode === "all") return "All prompts";
  if (selection.mode === "tag") return `Prompts tagged "${selection.tag}"`;
  return `${selection.promptIds.length} picked prompt${selection.promptIds.length === 1 ? "" : "s"}`;
}

/** A time shown in UTC with "in 3 hours" next to it; relative text may differ from the server's render. */
function When({ date }: { date: Date | string }) {
  return (
    <time dateTime={new Date(date).toISOString()} title={formatUtc(date)} suppressHydrationWarning>
      <span className="block text-slate-800">{formatUtc(date)}</span>
      <span className="block text-xs text-slate-500" suppressHydrationWarning>{formatWhen(date)}</span>
    </time>
  );
}

function LastRun({ schedule }: { schedule: ScheduleRow }) {
  const outcome = schedule.lastOutcome;
  if (!outcome) return <span className="text-slate-400">Never</span>;
  if (outcome.kind === "failed") {
    return (
      <div className="max-w-xs space-y-1">
        <Badge tone="red">not started</Badge>
        <p className="text-xs text-red-700">{outcome.message}</p>
        <p className="text-xs text-slate-500" suppressHydrationWarning>{formatWhen(outcome.at)}</p>
      </div>
    );
  }
  return (
    <div className="space-y-1">
      <Link href={`/checks/${outcome.checkId}`} className="font-medium text-brand-700 hover:underline" suppressHydrationWarning>
        {formatWhen(outcome.at)}
      </Link>
      <div><StatusBadge status={outcome.status} /></div>
    </div>
  );
}

export function SchedulesPage({
  initialSchedules,
  canEdit,
  choices,
  startNew = false,
}: {
  initialSchedules: ScheduleRow[];
  canEdit: boolean;
  choices: ScheduleChoices;
  /** Open the new-schedule dialog at once (a link from the first check's suggestion). */
  startNew?: boolean;
}) {
  const queryClient = useQueryClient();
  const [ask, confirmDialog] = useConfirm();
  const { data: schedules = [] } = useSchedulesQuery(initialSchedules);
  const [editing, setEditing] = useState<ScheduleRow | "new" | null>(() => (startNew && canEdit && choices.brands.length && choices.prompts.length ? "new" : null));
  const refresh = () => queryClient.invalidateQueries({ queryKey: schedulesKey });

  const togglePause = useMutation({
    mutationFn: async (schedule: ScheduleRow) =>
      unwrap(await (schedule.paused ? resumeScheduleAction : pauseScheduleAction)({ scheduleId: schedule.id })),
    onSuccess: async (_data, schedule) => {
      toast.success(schedule.paused ? `${schedule.name} resumed` : `${schedule.name} paused`);
      await refresh();
    },
    onError: (error) => toast.error(error.message),
  });
  const remove = useMutation({
    mutationFn: async (scheduleId: string) => unwrap(await deleteScheduleAction({ scheduleId })),
    onSuccess: async () => {
      toast.success("Schedule deleted");
      await refresh();
    },
    onError: (error) => toast.error(error.message),
  });

  const columns: Column<ScheduleRow>[] = [
    {
      id: "schedule",
      header: "Schedule",
      className: "min-w-48",
      cell: (s) => (
        <>
          <div className="flex items-center gap-2">
            <span className="font-medium text-slate-900">{s.name}</span>
            {s.paused && <Badge tone="amber">paused</Badge>}
          </div>
          <p className="text-xs text-slate-500">{s.brand} · {describePrompts(s.prompts)}</p>
        </>
      ),
    },
    { id: "when", header: "When", className: "text-slate-700", cell: (s) => describeCadence(s) },
    {
      id: "providers",
      header: "Providers",
      className: "text-slate-700",
      cell: (s) => (
        <>
          {s.providers.join(", ")}
          <p className="text-xs text-slate-500">{s.samples} sample{s.samples === 1 ? "" : "s"} each</p>
        </>
      ),
    },
    { id: "next-run", header: "Next run", cell: (s) => (s.paused ? <span className="text-slate-400">Paused</span> : <When date={s.nextRunAt} />) },
    { id: "last-run", header: "Last run", cell: (s) => <LastRun schedule={s} /> },
    ...(canEdit
      ? [
          actionsColumn<ScheduleRow>((s) => (
            <div className="flex justify-end gap-1">
              <Button variant="secondary" size="sm" onClick={() => setEditing(s)}>
                Edit
              </Button>
              <Button variant="ghost" size="sm" pending={togglePause.isPending && togglePause.variables?.id === s.id} onClick={() => togglePause.mutate(s)}>
                {s.paused ? "Resume" : "Pause"}
              </Button>
              <Button
                variant="ghost"
                size="sm"
                pending={remove.isPending && remove.variables === s.id}
                onClick={() => ask({ title: "Delete schedule?", body: `Delete the schedule "${s.name}"? The checks it already ran stay in the history.`, confirmLabel: "Delete", destructive: true }, () => remove.mutate(s.id))}
              >
                Delete
              </Button>
            </div>
          )),
        ]
      : []),
  ];

  const cannotCreate = !choices.brands.length ? "Add a brand first." : !choices.prompts.length ? "Add prompts first." : null;
  const create = canEdit && (
    <Button onClick={() => setEditing("new")} disabled={!!cannotCreate} title={cannotCreate ?? undefined}>
      New schedule
    </Button>
  );

  return (
    <>
      {confirmDialog}
      <PageHeader
        title="Schedules"
        description="Run the same check every day or every week, so visibility is measured over time without anyone clicking. Times are in UTC."
        actions={create}
      />
      {schedules.length === 0 ? (
        <EmptyState
          title="No schedules yet"
          description={cannotCreate ?? "A schedule starts a check with the prompts and providers you pick, daily or weekly at the time you choose."}
          action={create}
        />
      ) : (
        <Card className="overflow-hidden">
          <DataTable rows={schedules} columns={columns} rowKey={(s) => s.id} alignTop />
        </Card>
      )}
      {editing && <ScheduleFormDialog schedule={editing === "new" ? undefined : editing} choices={choices} onClose={() => setEditing(null)} />}
    </>
  );
}
