"use client";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/field";
import { useProviderOptionsQuery } from "./use-jobs-query";
import { CAPTURE_STATUSES, type CaptureStatus } from "@/lib/captures/states";
import { isUuid, type JobFilters } from "./queries";

const statusLabels: Partial<Record<CaptureStatus, string>> = { queued: "waiting (queued)", retry_wait: "waiting to retry", postponed: "postponed (breaker or budget)" };

const label = "mb-1 block text-xs font-medium text-slate-600";

/** The check id is applied on submit, and only once it looks like one; the URL may hold a bad value. */
function CheckIdFilter({ initial, onApply }: { initial: string; onApply: (checkId: string | undefined) => void }) {
  const [draft, setDraft] = useState(initial);
  const [error, setError] = useState(initial && !isUuid(initial) ? "That is not a check id. Paste the id from a check's address." : "");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = draft.trim();
    if (value && !isUuid(value)) {
      setError("That is not a check id. Paste the id from a check's address.");
      return;
    }
    setError("");
    onApply(value || undefined);
  };
  return (
    <form onSubmit={submit} className="min-w-[18rem] max-w-xl flex-1" role="search" aria-label="Filter by check">
      <label htmlFor="jobs-check" className={label}>Check id</label>
      <div className="flex gap-2">
        <Input
          id="jobs-check"
          value={draft}
          invalid={!!error}
          placeholder="Paste a check id"
          spellCheck={false}
          autoComplete="off"
          className="font-mono"
          onChange={(e) => {
            setDraft(e.target.value);
            if (error) setError("");
          }}
        />
        <Button type="submit" variant="secondary">Apply</Button>
        {initial && (
          <Button type="button" variant="ghost" onClick={() => onApply(undefined)}>Clear</Button>
        )}
      </div>
      {error && (
        <p id="jobs-check-error" role="alert" className="mt-1 text-xs text-red-600">{error}</p>
      )}
    </form>
  );
}

export function JobFiltersBar({ filters, rawCheckId, onChange }: { filters: JobFilters; rawCheckId: string; onChange: (change: Partial<JobFilters>) => void }) {
  const providers = useProviderOptionsQuery();
  return (
    <div className="mb-4 flex flex-wrap items-start gap-3">
      <div className="w-48">
        <label htmlFor="jobs-status" className={label}>Status</label>
        <Select id="jobs-status" value={filters.status ?? ""} onChange={(e) => onChange({ status: (e.target.value || undefined) as CaptureStatus | undefined })}>
          <option value="">All statuses</option>
          {CAPTURE_STATUSES.map((s) => (
            <option key={s} value={s}>{statusLabels[s] ?? s}</option>
          ))}
        </Select>
      </div>
      <div className="w-56">
        <label htmlFor="jobs-provider" className={label}>Provider</label>
        <Select
          id="jobs-provider"
          value={filters.providerConfigId ?? ""}
          disabled={providers.isPending}
          invalid={providers.isError}
          aria-describedby={providers.isError ? "jobs-provider-error" : undefined}
          onChange={(e) => onChange({ providerConfigId: e.target.value || undefined })}
        >
          <option value="">{providers.isPending ? "Loading providers…" : "All providers"}</option>
          {providers.data?.map((p) => (
            <option key={p.id} value={p.id}>{p.name}</option>
          ))}
          {/* A provider in the URL that is not listed (deleted, or still loading) stays selectable. */}
          {filters.providerConfigId && providers.data && !providers.data.some((p) => p.id === filters.providerConfigId) && (
            <option value={filters.providerConfigId}>Unknown provider</option>
          )}
        </Select>
        {providers.isError && (
          <p id="jobs-provider-error" className="mt-1 text-xs text-red-600">Could not load providers: {providers.error.message}</p>
        )}
      </div>
      {/* Remounts when the URL changes (back button, a link) so the box shows what is applied. */}
      <CheckIdFilter key={rawCheckId} initial={rawCheckId} onApply={(checkId) => onChange({ checkId })} />
    </div>
  );
}
