"use client";
// The prompt and provider pickers shared by the "New check" form and the schedule form.
import { useMemo, useState } from "react";
import { Badge } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/field";
import type { PromptSelection } from "@/lib/checks/schemas";

/** `granted`: the provider's connection is still granted to the workspace; `configured`: this server has its API key. */
export type ProviderChoice = { id: string; name: string; model: string; adapter: string; enabled: boolean; configured: boolean; granted: boolean };

/** Whether a check may use the provider now. */
export const isUsable = (p: ProviderChoice) => p.enabled && p.configured && p.granted;
export type PromptChoice = { id: string; text: string; tags: string[] };

export const toggle = (set: Set<string>, id: string) => {
  const next = new Set(set);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
};

export function PromptPicker(props: {
  prompts: PromptChoice[];
  tags: { tag: string; count: number }[];
  mode: PromptSelection["mode"];
  onMode: (mode: PromptSelection["mode"]) => void;
  tag: string;
  onTag: (tag: string) => void;
  picked: Set<string>;
  onPicked: (picked: Set<string>) => void;
  error: (field: string) => string | undefined;
}) {
  const [filter, setFilter] = useState("");
  const visible = useMemo(() => {
    const q = filter.trim().toLowerCase();
    return q ? props.prompts.filter((p) => p.text.toLowerCase().includes(q)) : props.prompts;
  }, [filter, props.prompts]);
  const pickedError = props.error("prompts.promptIds") ?? props.error("prompts");
  return (
    <div className="space-y-3">
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">Prompts</legend>
        <div className="mt-2 flex flex-wrap gap-4 text-sm">
          <label className="flex items-center gap-2"><input type="radio" name="schedule-prompt-mode" checked={props.mode === "all"} onChange={() => props.onMode("all")} /> All ({props.prompts.length})</label>
          <label className="flex items-center gap-2"><input type="radio" name="schedule-prompt-mode" checked={props.mode === "tag"} disabled={!props.tags.length} onChange={() => props.onMode("tag")} /> By tag</label>
          <label className="flex items-center gap-2"><input type="radio" name="schedule-prompt-mode" checked={props.mode === "picked"} onChange={() => props.onMode("picked")} /> Pick prompts</label>
        </div>
      </fieldset>
      {props.mode === "tag" && (
        <Field id="schedule-tag" label="Tag" error={props.error("prompts.tag")}>
          <Select id="schedule-tag" value={props.tag} onChange={(e) => props.onTag(e.target.value)}>
            {props.tags.map((t) => (
              <option key={t.tag} value={t.tag}>{t.tag} ({t.count})</option>
            ))}
          </Select>
        </Field>
      )}
      {props.mode === "picked" && (
        <div className="space-y-2">
          <Input aria-label="Filter prompts" placeholder="Filter prompts…" value={filter} onChange={(e) => setFilter(e.target.value)} />
          <ul className="max-h-56 divide-y divide-slate-100 overflow-y-auto rounded-md ring-1 ring-slate-200">
            {visible.map((p) => (
              <li key={p.id}>
                <label className="flex cursor-pointer items-start gap-3 px-3 py-2 text-sm hover:bg-slate-50">
                  <input type="checkbox" className="mt-0.5" checked={props.picked.has(p.id)} onChange={() => props.onPicked(toggle(props.picked, p.id))} />
                  <span className="flex-1">{p.text}</span>
                  {p.tags.map((t) => <Badge key={t}>{t}</Badge>)}
                </label>
              </li>
            ))}
          </ul>
          <p className="text-xs text-slate-500">{props.picked.size} picked</p>
        </div>
      )}
      {props.mode !== "tag" && pickedError && <p className="text-xs text-red-600" role="alert">{pickedError}</p>}
    </div>
  );
}

export function ProviderPicker(props: { providers: ProviderChoice[]; selected: Set<string>; onSelected: (selected: Set<string>) => void; error?: string }) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">Providers</legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {props.providers.map((p) => {
          const checked = props.selected.has(p.id);
          // A provider disabled since the schedule was saved can still be unticked.
          const disabled = !isUsable(p) && !checked;
          return (
            <label key={p.id} className={`flex items-center gap-3 rounded-md px-3 py-2 text-sm ring-1 ring-slate-200 ${disabled ? "opacity-60" : "cursor-pointer hover:bg-slate-50"}`}>
              <input type="checkbox" disabled={disabled} checked={checked} onChange={() => props.onSelected(toggle(props.selected, p.id))} />
              <span className="flex-1">
                <span className="font-medium text-slate-900">{p.name}</span> <span className="text-xs text-slate-500">{p.model}</span>
              </span>
              {p.adapter === "simulator" && <Badge>simulated</Badge>}
              {!p.granted && <Badge tone="red">not granted</Badge>}
              {p.granted && !p.configured && <Badge tone="amber">not configured</Badge>}
              {!p.enabled && <Badge>disabled</Badge>}
            </label>
          );
        })}
      </div>
      {props.error && <p className="mt-1 text-xs text-red-600" role="alert">{props.error}</p>}
    </fieldset>
  );
}
