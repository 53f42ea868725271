"use client";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useDeferredValue, useState } from "react";
import { toast } from "@/lib/browser/toast";
import { isUsable, PromptPicker, ProviderPicker, type PromptChoice, type ProviderChoice } from "@/components/checks/selection-fields";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, PageHeader } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/field";
import { estimateCheckAction, startCheckAction } from "@/lib/actions/checks";
import { formatMicros } from "@/lib/format";
import { ActionFailure, unwrap } from "@/lib/browser/action-result";
import { MAX_SAMPLES, type PromptSelection } from "@/lib/checks/schemas";
import { checksKey } from "../queries";

export function NewCheckForm(props: { brands: { id: string; name: string; competitors: number }[]; tags: { tag: string; count: number }[]; prompts: PromptChoice[]; providers: ProviderChoice[] }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  // One key per form: a double click or a retry after a network error creates one check.
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const [brandId, setBrandId] = useState(props.brands[0]?.id ?? "");
  const [mode, setMode] = useState<PromptSelection["mode"]>("all");
  const [tag, setTag] = useState(props.tags[0]?.tag ?? "");
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const usable = props.providers.filter(isUsable);
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
        className="grid grid-cols-1 gap-6 lg:grid-cols-[1fr_20rem]"
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

          <Card className="p-5">
            <PromptPicker prompts={props.prompts} tags={props.tags} mode={mode} onMode={setMode} tag={tag} onTag={setTag} picked={picked} onPicked={setPicked} error={fieldError} />
          </Card>

          <Card className="space-y-3 p-5">
            <ProviderPicker providers={props.providers} selected={providerIds} onSelected={setProviderIds} error={fieldError("providerConfigIds")} />
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
