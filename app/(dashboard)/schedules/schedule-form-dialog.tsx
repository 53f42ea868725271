"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "@/lib/browser/toast";
import { z } from "zod";
import { Dialog, FormActions } from "@/components/ui/dialog";
import { Field, Input, Select } from "@/components/ui/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { createScheduleAction, updateScheduleAction } from "@/lib/actions/schedules";
import { MAX_SAMPLES, type PromptSelection } from "@/lib/checks/schemas";
import { formatUtc, formatWhen } from "@/lib/format";
import { WEEKDAYS, formatMinuteOfDay, nextRunAfter, parseTimeOfDay } from "@/lib/schedules/next-run";
import { scheduleInputSchema } from "@/lib/schedules/schemas";
import { isUsable, PromptPicker, ProviderPicker, type PromptChoice, type ProviderChoice } from "@/components/checks/selection-fields";
import { schedulesKey, type ScheduleRow } from "./use-schedules-query";

export type ScheduleChoices = {
  brands: { id: string; name: string }[];
  tags: { tag: string; count: number }[];
  prompts: PromptChoice[];
  providers: ProviderChoice[];
};

const schema = z.object({ scheduleId: z.uuid().optional(), version: z.number().optional(), schedule: scheduleInputSchema });

export function ScheduleFormDialog({ schedule, choices, onClose }: { schedule?: ScheduleRow; choices: ScheduleChoices; onClose: () => void }) {
  const queryClient = useQueryClient();
  const usable = choices.providers.filter(isUsable);
  const initial = schedule?.prompts;
  const [name, setName] = useState(schedule?.name ?? "");
  const [brandId, setBrandId] = useState(schedule?.brandId ?? choices.brands[0]?.id ?? "");
  const [cadence, setCadence] = useState<"daily" | "weekly">(schedule?.cadence ?? "daily");
  const [weekday, setWeekday] = useState(schedule?.weekday ?? 1);
  const [time, setTime] = useState(formatMinuteOfDay(schedule?.minuteOfDay ?? 9 * 60));
  const [mode, setMode] = useState<PromptSelection["mode"]>(initial?.mode ?? "all");
  const [tag, setTag] = useState(initial?.mode === "tag" ? initial.tag : (choices.tags[0]?.tag ?? ""));
  const [picked, setPicked] = useState<Set<string>>(new Set(initial?.mode === "picked" ? initial.promptIds : []));
  const [providerIds, setProviderIds] = useState<Set<string>>(new Set(schedule?.providerConfigIds ?? usable.map((p) => p.id)));
  const [samples, setSamples] = useState(schedule?.samples ?? 1);
  // One key per dialog: a resubmit after a lost response finds the schedule the first made.
  const [createKey] = useState(() => crypto.randomUUID());

  const form = useActionForm(schema, async ({ scheduleId, version, schedule: input }) => (scheduleId ? updateScheduleAction({ scheduleId, version, schedule: input }) : createScheduleAction({ ...input, createKey })), {
    onSuccess: async () => {
      toast.success(schedule ? "Schedule saved" : "Schedule created");
      await queryClient.invalidateQueries({ queryKey: schedulesKey });
      onClose();
    },
    reloadOnConflict: schedulesKey,
  });
  // Client-side checks report "schedule.name"; the create action reports "name".
  const error = (path: string) => form.error(`schedule.${path}`) ?? form.error(path);

  const minuteOfDay = parseTimeOfDay(time);
  const timing = { cadence, weekday: cadence === "weekly" ? weekday : null, minuteOfDay: minuteOfDay ?? Number.NaN };
  const nextRun = minuteOfDay === null ? null : nextRunAfter(timing, new Date());
  const prompts: PromptSelection = mode === "all" ? { mode } : mode === "tag" ? { mode, tag } : { mode, promptIds: [...picked] };

  return (
    <Dialog open onClose={onClose} title={schedule ? `Edit ${schedule.name}` : "New schedule"} size="lg">
      <form
        noValidate
        className="space-y-5"
        onSubmit={(event) => {
          event.preventDefault();
          // As opened: a save after another member's edit is refused instead of undoing it.
          form.submit({ scheduleId: schedule?.id, version: schedule?.editVersion, schedule: { name, brandId, prompts, providerConfigIds: [...providerIds], samples, ...timing } });
        }}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="schedule-name" label="Name" error={error("name")}>
            <Input id="schedule-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Weekly buying questions" invalid={!!error("name")} />
          </Field>
          <Field id="schedule-brand" label="Brand" error={error("brandId")}>
            <Select id="schedule-brand" value={brandId} onChange={(e) => setBrandId(e.target.value)} invalid={!!error("brandId")}>
              {choices.brands.map((b) => (
                <option key={b.id} value={b.id}>{b.name}</option>
              ))}
            </Select>
          </Field>
        </div>

        <div className="grid gap-4 sm:grid-cols-3">
          <Field id="schedule-cadence" label="Repeat" error={error("cadence")}>
            <Select id="schedule-cadence" value={cadence} onChange={(e) => setCadence(e.target.value as "daily" | "weekly")}>
              <option value="daily">Daily</option>
              <option value="weekly">Weekly</option>
            </Select>
          </Field>
          {cadence === "weekly" && (
            <Field id="schedule-weekday" label="On" error={error("weekday")}>
              <Select id="schedule-weekday" value={weekday} onChange={(e) => setWeekday(Number(e.target.value))} invalid={!!error("weekday")}>
                {WEEKDAYS.map((day, i) => (
                  <option key={day} value={i}>{day}</option>
                ))}
              </Select>
            </Field>
          )}
          <Field id="schedule-time" label="At (UTC)" error={error("minuteOfDay") ?? (minuteOfDay === null ? "Enter a time such as 09:00" : undefined)}>
            <Input id="schedule-time" type="time" step={60} value={time} onChange={(e) => setTime(e.target.value)} invalid={!!error("minuteOfDay") || minuteOfDay === null} />
          </Field>
        </div>
        {nextRun && (
          <p className="text-xs text-slate-500">
            Next run {formatUtc(nextRun)} ({formatWhen(nextRun)}). Runs missed while workers are down run once when they are back.
          </p>
        )}

        <PromptPicker prompts={choices.prompts} tags={choices.tags} mode={mode} onMode={setMode} tag={tag} onTag={setTag} picked={picked} onPicked={setPicked} error={error} />

        <ProviderPicker providers={choices.providers} selected={providerIds} onSelected={setProviderIds} error={error("providerConfigIds")} />

        <Field id="schedule-samples" label="Samples per prompt and provider" hint="1 to 5. Each sample is a separate answer." error={error("samples")}>
          <Input id="schedule-samples" type="number" min={1} max={MAX_SAMPLES} value={samples} onChange={(e) => setSamples(Math.min(MAX_SAMPLES, Math.max(1, Number(e.target.value) || 1)))} className="max-w-24" />
        </Field>

        <FormActions onCancel={onClose} pending={form.pending} submitLabel={schedule ? "Save" : "Create schedule"} />
      </form>
    </Dialog>
  );
}
