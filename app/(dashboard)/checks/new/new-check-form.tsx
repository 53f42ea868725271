"use client";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useDeferredValue, useMemo, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Badge, Card, EmptyState, PageHeader } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/field";
import { estimateCheckAction, startCheckAction } from "@/lib/actions/checks";
import { formatMicros } from "@/lib/billing/money";
import { ActionFailure, unwrap } from "@/lib/client/action-result";
import { MAX_SAMPLES, type PromptSelection } from "@/lib/checks/schemas";
import { checksKey } from "../use-checks-query";

type Provider = { id: string; name: string; model: string; adapter: string; enabled: boolean; configured: boolean };
type Prompt = { id: string; text: string; tags: string[] };

export function NewCheckForm(props: { brands: { id: string; name: string; competitors: number }[]; tags: { tag: string; count: number }[]; prompts: Prompt[]; providers: Provider[] }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  // One key per form: a double click or a retry after a network error creates one check.
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const [brandId, setBrandId] = useState(props.brands[0]?.id ?? "");
  const [mode, setMode] = useState<PromptSelection["mode"]>("all");
  const [tag, setTag] = useState(props.tags[0]?.tag ?? "");
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [filter, setFilter] = useState("");
  const usable = props.providers.filter((p) => p.enabled && p.configured);
  const [providerIds, setProviderIds] = useState<Set<string>>(new Set(usable.map((p) => p.id)));
  const [samples, setSamples] = useState(1);
  const [errors, setErrors] = useState<Record<string, string[] | undefined>>({});

  const prompts: PromptSelection = mode === "all" ? { mode } : mode === "tag" ? { mode, tag } : { mode, promptIds: [...picked] };
  const input = { brandId, prompts, providerConfigIds: [...providerIds], samples };
  const ready = brandId && providerIds.size > 0 && (mode !== "picked" || picked.size > 0) && (mode !== "tag" || tag);
  const deferredInput = useDeferredValue(input);
  const estimate = useQuery({
    queryKey: ["check-estimate", deferredInput],
    queryFn: async () => unwrap(await estimateCheckAction(deferredInput)),
    enabled: !!ready,
    placeholderData: keepPreviousData,
    retry: false,
  });

  const start = useMutation({
    mutationFn: async () => unwrap(await startCheckAction({ idempotencyKey, ...input })),
    onSuccess: async ({ checkId }) => {
      toast.success("Check started. You can close this tab: it keeps running.");
      await queryClient.invalidateQueries({ queryKey: checksKey });
      router.push(`/checks/${checkId}`);
    },
    onError: (error) => {
      if (error instanceof ActionFailure) setErrors(error.fieldErrors);
      toast.error(error.message);
    },
  });

  const visiblePrompts = useMemo(() => {
    const q = filter.trim().toLowerCase();
    return q ? props.prompts.filter((p) => p.text.toLowerCase().includes(q)) : props.prompts;
  }, [filter, props.prompts]);
  const toggle = (set: Set<string>, id: string) => {
    const next = new Set(set);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    return next;
  };

  if (!props.brands.length || !props.prompts.length) {
    return (
      <>
        <PageHeader title="New check" />
        <EmptyState
          title={!props.brands.length ? "Add a brand first" : "Add prompts first"}
          description="A check asks your prompts to AI providers and looks for your brand and competitors in the answers."
        />
      </>
    );
  }

  const over = estimate.data && estimate.data.budget.leftMicros !== null && estimate.data.estimateMicros > estimate.data.budget.leftMicros;
  const fieldError = (key: string) => errors[key]?.[0];

  return (
    <>
      <PageHeader title="New check" description="Every prompt is asked to every provider, as many times as the samples say. Answers vary between runs; more samples give steadier numbers." />
      <form
        className="grid gap-6 lg:grid-cols-[1fr_20rem]"
        onSubmit={(event) => {
          event.preventDefault();
          if (ready) start.mutate();
        }}
      >
        <div className="space-y-6">
          <Card className="space-y-4 p-5">
            <Field id="check-brand" label="Brand" error={fieldError("brandId")}>
              <Select id="check-brand" value={brandId} onChange={(e) => setBrandId(e.target.value)}>
                {props.brands.map((b) => (
                  <option key={b.id} value={b.id}>{b.name} ({b.competitors} competitors)</option>
                ))}
              </Select>
            </Field>
          </Card>

          <Card className="space-y-3 p-5">
            <fieldset>
              <legend className="text-sm font-medium text-slate-700">Prompts</legend>
              <div className="mt-2 flex flex-wrap gap-4 text-sm">
                <label className="flex items-center gap-2"><input type="radio" name="mode" checked={mode === "all"} onChange={() => setMode("all")} /> All ({props.prompts.length})</label>
                <label className="flex items-center gap-2"><input type="radio" name="mode" checked={mode === "tag"} disabled={!props.tags.length} onChange={() => setMode("tag")} /> By tag</label>
                <label className="flex items-center gap-2"><input type="radio" name="mode" checked={mode === "picked"} onChange={() => setMode("picked")} /> Pick prompts</label>
              </div>
            </fieldset>
            {mode === "tag" && (
              <Field id="check-tag" label="Tag" error={fieldError("prompts.tag")}>
                <Select id="check-tag" value={tag} onChange={(e) => setTag(e.target.value)}>
                  {props.tags.map((t) => (
                    <option key={t.tag} value={t.tag}>{t.tag} ({t.count})</option>
                  ))}
                </Select>
              </Field>
            )}
            {mode === "picked" && (
              <div className="space-y-2">
                <Input aria-label="Filter prompts" placeholder="Filter prompts…" value={filter} onChange={(e) => setFilter(e.target.value)} />
                <ul className="max-h-72 divide-y divide-slate-100 overflow-y-auto rounded-md ring-1 ring-slate-200">
                  {visiblePrompts.map((p) => (
                    <li key={p.id}>
                      <label className="flex cursor-pointer items-start gap-3 px-3 py-2 text-sm hover:bg-slate-50">
                        <input type="checkbox" className="mt-0.5" checked={picked.has(p.id)} onChange={() => setPicked((s) => toggle(s, p.id))} />
                        <span className="flex-1">{p.text}</span>
                        {p.tags.map((t) => <Badge key={t}>{t}</Badge>)}
                      </label>
                    </li>
                  ))}
                </ul>
                <p className="text-xs text-slate-500">{picked.size} picked</p>
                {fieldError("prompts.promptIds") && <p className="text-xs text-red-600" role="alert">{fieldError("prompts.promptIds")}</p>}
              </div>
            )}
          </Card>

          <Card className="space-y-3 p-5">
            <fieldset>
              <legend className="text-sm font-medium text-slate-700">Providers</legend>
              <div className="mt-2 grid gap-2 sm:grid-cols-2">
                {props.providers.map((p) => {
                  const disabled = !p.enabled || !p.configured;
                  return (
                    <label key={p.id} className={`flex items-center gap-3 rounded-md px-3 py-2 text-sm ring-1 ring-slate-200 ${disabled ? "opacity-60" : "cursor-pointer hover:bg-slate-50"}`}>
                      <input type="checkbox" disabled={disabled} checked={providerIds.has(p.id)} onChange={() => setProviderIds((s) => toggle(s, p.id))} />
                      <span className="flex-1">
                        <span className="font-medium text-slate-900">{p.name}</span> <span className="text-xs text-slate-500">{p.model}</span>
                      </span>
                      {p.adapter === "simulator" && <Badge>simulated</Badge>}
                      {!p.configured && <Badge tone="amber">not configured</Badge>}
                      {!p.enabled && <Badge>disabled</Badge>}
                    </label>
                  );
                })}
              </div>
              {fieldError("providerConfigIds") && <p className="mt-1 text-xs text-red-600" role="alert">{fieldError("providerConfigIds")}</p>}
            </fieldset>
            <Field id="check-samples" label="Samples per prompt and provider" hint="1 to 5. Each sample is a separate answer." error={fieldError("samples")}>
              <Input id="check-samples" type="number" min={1} max={MAX_SAMPLES} value={samples} onChange={(e) => setSamples(Math.min(MAX_SAMPLES, Math.max(1, Number(e.target.value) || 1)))} className="max-w-24" />
            </Field>
          </Card>
        </div>

        <aside>
          <Card className="sticky top-6 space-y-4 p-5">
            <h2 className="text-sm font-semibold text-slate-900">Summary</h2>
            {!ready ? (
              <p className="text-sm text-slate-500">Pick at least one prompt and one provider.</p>
            ) : estimate.isError ? (
              <p className="text-sm text-red-600" role="alert">{estimate.error.message}</p>
            ) : (
              <dl className="space-y-2 text-sm" aria-busy={estimate.isFetching}>
                <div className="flex justify-between"><dt className="text-slate-600">Captures</dt><dd className="font-semibold tabular-nums">{estimate.data?.captures ?? "…"}</dd></div>
                <div className="flex justify-between"><dt className="text-slate-600">Estimated cost</dt><dd className="font-semibold tabular-nums">{estimate.data ? formatMicros(estimate.data.estimateMicros) : "…"}</dd></div>
                {estimate.data?.budget.leftMicros !== null && estimate.data && (
                  <div className="flex justify-between"><dt className="text-slate-600">Budget left this month</dt><dd className="tabular-nums">{formatMicros(estimate.data.budget.leftMicros ?? 0)}</dd></div>
                )}
              </dl>
            )}
            {over && <p className="rounded-md bg-amber-50 p-2 text-xs text-amber-800 ring-1 ring-amber-200">This check would go over this month&apos;s budget and will be refused.</p>}
            <Button type="submit" className="w-full" pending={start.isPending} disabled={!ready || start.isSuccess}>
              Run check
            </Button>
          </Card>
        </aside>
      </form>
    </>
  );
}
