"use client";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/field";
import { MAX_RANGE_DAYS, RANGE_PRESETS } from "@/lib/analytics/filter-query";
import { MultiSelect } from "./multi-select";
import { useChartQuery } from "./use-analytics-queries";
import type { FilterOptions, useAnalyticsFilters } from "./use-analytics-filters";

type Filters = ReturnType<typeof useAnalyticsFilters>;

const label = "mb-1 block text-xs font-medium text-slate-600";

function CustomRange({ from, to, onApply, onCancel }: { from: string; to: string; onApply: (from: string, to: string) => void; onCancel?: () => void }) {
  const [draft, setDraft] = useState({ from, to });
  const [error, setError] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!draft.from || !draft.to) return setError("Choose both dates.");
    if (draft.from > draft.to) return setError("The start date must not be after the end date.");
    const days = (Date.parse(draft.to) - Date.parse(draft.from)) / 86_400_000 + 1;
    if (days > MAX_RANGE_DAYS) return setError(`Choose at most ${MAX_RANGE_DAYS} days.`);
    setError("");
    onApply(draft.from, draft.to);
  };
  return (
    <form onSubmit={submit} aria-label="Custom date range" className="flex flex-wrap items-end gap-2">
      <div>
        <label htmlFor="analytics-from" className={label}>From</label>
        <Input id="analytics-from" type="date" value={draft.from} invalid={!!error} onChange={(e) => setDraft({ ...draft, from: e.target.value })} className="w-40" />
      </div>
      <div>
        <label htmlFor="analytics-to" className={label}>To</label>
        <Input id="analytics-to" type="date" value={draft.to} invalid={!!error} onChange={(e) => setDraft({ ...draft, to: e.target.value })} className="w-40" />
      </div>
      <Button type="submit" variant="secondary">Apply</Button>
      {onCancel && <Button type="button" variant="ghost" onClick={onCancel}>Cancel</Button>}
      {error && <p role="alert" className="w-full text-xs text-red-600">{error}</p>}
    </form>
  );
}

/** Brand, providers, tags, markets and dates of every dashboard; the state is in the address. */
export function FilterBar({ options, filters }: { options: FilterOptions; filters: Filters }) {
  const { input, preset, update } = filters;
  const [editing, setEditing] = useState(false);
  const custom = preset === null || editing;
  // Answers per provider whatever providers are chosen: asked without them, so ticking one does not ask again.
  const coverage = useChartQuery("provider-coverage", { ...input, providers: [] });
  // While the period's coverage loads (or a new period's), mark nothing rather than the old period's.
  const answers = coverage.isPlaceholderData ? undefined : new Map(coverage.data?.providers.map((p) => [p.id, p.answers]));
  return (
    <div className="mb-6 flex flex-wrap items-end gap-4" role="search" aria-label="Filters">
      {options.brands.length > 1 && (
        <div className="w-48">
          <label htmlFor="analytics-brand" className={label}>Brand</label>
          <Select id="analytics-brand" value={input.brandId ?? ""} onChange={(e) => update({ brandId: e.target.value })}>
            {options.brands.map((b) => (
              <option key={b.id} value={b.id}>{b.name}</option>
            ))}
          </Select>
        </div>
      )}
      <MultiSelect
        id="analytics-providers"
        label="Providers"
        allLabel="All providers"
        options={options.providers.map((p) => ({ value: p.id, label: p.name, note: answers?.get(p.id) === 0 ? "no data" : undefined }))}
        value={input.providers ?? []}
        onChange={(providers) => update({ providers })}
      />
      <MultiSelect
        id="analytics-tags"
        label="Tags"
        allLabel="All prompts"
        options={options.tags.map((t) => ({ value: t, label: t }))}
        value={input.tags ?? []}
        onChange={(tags) => update({ tags })}
      />
      {options.markets.length > 1 && (
        <MultiSelect
          id="analytics-markets"
          label="Markets"
          allLabel="All markets"
          options={options.markets.map((m) => ({ value: m.key, label: m.label }))}
          value={input.markets ?? []}
          onChange={(markets) => update({ markets })}
        />
      )}
      <div>
        <span id="analytics-range-label" className={label}>Dates (UTC)</span>
        <div role="group" aria-labelledby="analytics-range-label" className="inline-flex rounded-md shadow-sm ring-1 ring-slate-300">
          {RANGE_PRESETS.map((days) => (
            <button
              key={days}
              type="button"
              aria-pressed={!custom && preset === days}
              onClick={() => {
                setEditing(false);
                update({ range: days });
              }}
              className="border-r border-slate-300 px-3 py-2 text-sm font-medium text-slate-700 first:rounded-l-md hover:bg-slate-50 aria-pressed:bg-brand-50 aria-pressed:text-brand-700"
            >
              {days} days
            </button>
          ))}
          <button
            type="button"
            aria-pressed={custom}
            onClick={() => setEditing(true)}
            className="rounded-r-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 aria-pressed:bg-brand-50 aria-pressed:text-brand-700"
          >
            Custom
          </button>
        </div>
      </div>
      {custom && (
        <CustomRange
          key={`${input.from}-${input.to}`}
          from={input.from ?? ""}
          to={input.to ?? ""}
          onApply={(from, to) => {
            setEditing(false);
            update({ from, to });
          }}
          onCancel={preset !== null ? () => setEditing(false) : undefined}
        />
      )}
    </div>
  );
}
