"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { toast } from "sonner";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input, Select } from "@/components/ui/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { createProviderAction, updateProviderAction } from "@/lib/actions/settings";
import { providerConfigInputSchema, type ProviderConfigInput } from "@/lib/providers/schemas";
import { providerFormDefaults, readProviderForm } from "./provider-form-values";
import { providersKey, type ProviderRow } from "./use-settings-queries";

export const adapterLabels: Record<ProviderConfigInput["adapter"], string> = {
  simulator: "Simulator",
  openai: "OpenAI",
  perplexity: "Perplexity",
  gemini: "Google Gemini",
  anthropic: "Anthropic",
};

export const searchModeLabels: Record<ProviderConfigInput["searchMode"], string> = {
  auto: "Model decides",
  on: "Always search",
  off: "Never search",
};

const styles = { chatgpt: "ChatGPT", perplexity: "Perplexity", gemini: "Gemini", claude: "Claude" };

const schema = z.object({ providerConfigId: z.uuid().optional(), config: providerConfigInputSchema });

const fieldId = (path: string) => `provider-${path.replace(/\./g, "-")}`;

function Section({ legend, description, children }: { legend: string; description?: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-3 border-t border-slate-200 pt-4 first:border-t-0 first:pt-0">
      <legend className="float-left w-full text-sm font-semibold text-slate-900">{legend}</legend>
      {description && <p className="clear-left text-xs text-slate-500">{description}</p>}
      <div className="clear-left grid grid-cols-2 items-start gap-3">{children}</div>
    </fieldset>
  );
}

function Checkbox({ name, label, defaultChecked }: { name: string; label: string; defaultChecked: boolean }) {
  return (
    <div className="col-span-2 flex items-center gap-2">
      <input id={fieldId(name)} name={name} type="checkbox" defaultChecked={defaultChecked} className="size-4 accent-brand-600" />
      <label htmlFor={fieldId(name)} className="text-sm text-slate-700">
        {label}
      </label>
    </div>
  );
}

export function ProviderFormDialog({ provider, onClose }: { provider?: ProviderRow; onClose: () => void }) {
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const [defaults] = useState(() => providerFormDefaults(provider));
  const [adapter, setAdapter] = useState(defaults.adapter);
  // Text the form could not read as a number in its unit; shown before the schema's messages.
  const [parseErrors, setParseErrors] = useState<Record<string, string>>({});
  const form = useActionForm(
    schema,
    async ({ providerConfigId, config }) => (providerConfigId ? updateProviderAction({ providerConfigId, config }) : createProviderAction(config)),
    {
      onSuccess: async () => {
        toast.success(provider ? "Provider saved" : "Provider added");
        await queryClient.invalidateQueries({ queryKey: providersKey });
        onClose();
      },
    },
  );
  const error = (path: string) => parseErrors[path] ?? form.error(`config.${path}`) ?? form.error(path);

  // Take keyboard users to the first problem after a rejected save.
  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>("[aria-invalid=true]")?.focus();
  }, [form.errors, parseErrors]);

  const number = (path: string, label: string, hint?: string) => (
    <Field id={fieldId(path)} label={label} hint={hint} error={error(path)}>
      <Input id={fieldId(path)} name={path} inputMode="decimal" autoComplete="off" defaultValue={defaults.text[path]} invalid={!!error(path)} />
    </Field>
  );

  return (
    <Dialog open size="lg" onClose={onClose} title={provider ? `Edit ${provider.name}` : "Add a provider"}>
      <form
        ref={formRef}
        noValidate
        className="space-y-5"
        onSubmit={(event) => {
          event.preventDefault();
          const { config, errors } = readProviderForm(new FormData(event.currentTarget));
          setParseErrors(errors);
          form.submit({ providerConfigId: provider?.id, config });
        }}
      >
        <Section legend="Basics">
          <Field id={fieldId("name")} label="Name" hint="Also the name the REST API uses" error={error("name")}>
            <Input id={fieldId("name")} name="name" defaultValue={defaults.name} autoFocus invalid={!!error("name")} />
          </Field>
          <Field id={fieldId("model")} label="Model" hint="e.g. gpt-5-mini" error={error("model")}>
            <Input id={fieldId("model")} name="model" defaultValue={defaults.model} invalid={!!error("model")} />
          </Field>
          <Field id={fieldId("adapter")} label="Adapter" error={error("adapter")}>
            <Select id={fieldId("adapter")} name="adapter" value={adapter} onChange={(e) => setAdapter(e.target.value as typeof adapter)}>
              {Object.entries(adapterLabels).map(([value, label]) => (
                <option key={value} value={value}>
                  {value === "simulator" ? "Simulator (no API calls)" : label}
                </option>
              ))}
            </Select>
          </Field>
          <Field id={fieldId("searchMode")} label="Web search" error={error("searchMode")}>
            <Select id={fieldId("searchMode")} name="searchMode" defaultValue={defaults.searchMode}>
              {Object.entries(searchModeLabels).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </Select>
          </Field>
          <Checkbox name="enabled" label="Enabled: offer this provider when starting a check" defaultChecked={defaults.enabled} />
        </Section>

        <Section legend="Prices" description="In US dollars, as on the provider's pricing page. Used for cost estimates and the budget.">
          {number("inputPricePerMTokMicros", "Input, per 1M tokens")}
          {number("outputPricePerMTokMicros", "Output, per 1M tokens")}
          {number("cachedPricePerMTokMicros", "Cached input, per 1M tokens")}
          {number("reasoningPricePerMTokMicros", "Reasoning, per 1M tokens")}
          {number("searchPriceMicros", "Web search, per 1,000 searches")}
        </Section>

        <Section legend="Limits" description="Max output tokens and searches are sent with every call, so no call can cost more than the worst case the monthly budget reserves for it.">
          {number("maxConcurrency", "Max concurrency", "Calls in flight at once")}
          {number("maxAttempts", "Max attempts", "Including the first call")}
          {number("unknownRetries", "Unknown-outcome retries", "When a call may have been billed")}
          {number("timeoutMs", "Timeout (seconds)", "Per attempt")}
          {number("maxOutputTokens", "Max output tokens", "Reasoning included; the budget reserves this many per call (1 to 200,000)")}
          {number("maxSearchCalls", "Max searches per call", "0 turns search off; the budget reserves this many per call (0 to 20)")}
        </Section>

        <Section legend="Circuit breaker" description="Stops calling a provider that keeps failing, then lets one probe call through after a pause.">
          {number("breakerWindowSize", "Window size (calls)")}
          {number("breakerMinCalls", "Minimum calls", "Before the rate counts")}
          {number("breakerFailureRatePct", "Failure rate to open (%)")}
          {number("breakerOpenSeconds", "Open for (seconds)")}
          {number("breakerSlowCallMs", "Slow call (ms)")}
          {number("breakerProbeTimeoutMs", "Breaker probe timeout (ms)", "Short, so a probe that hangs does not hold the provider (1,000 to 600,000)")}
          <Checkbox name="breakerSlowCallIsFailure" label="Count slow calls as failures" defaultChecked={defaults.breakerSlowCallIsFailure} />
        </Section>

        {adapter === "simulator" && (
          <Section legend="Simulator" description="Answers are made up locally, without API calls. Raise the rates to rehearse failures.">
            <Field id={fieldId("simulator.style")} label="Answer style" error={error("simulator.style")}>
              <Select id={fieldId("simulator.style")} name="simulator.style" defaultValue={defaults.simulatorStyle}>
                {Object.entries(styles).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </Select>
            </Field>
            <div />
            {number("simulator.latencyMinMs", "Latency min (ms)")}
            {number("simulator.latencyMaxMs", "Latency max (ms)")}
            {number("simulator.errorRate", "Transient errors (%)")}
            {number("simulator.permanentErrorRate", "Permanent errors (%)")}
            {number("simulator.timeoutRate", "Timeouts (%)")}
          </Section>
        )}

        <div className="sticky bottom-0 -mx-6 -mb-6 flex justify-end gap-2 border-t border-slate-200 bg-white px-6 py-4">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" pending={form.pending}>
            {provider ? "Save" : "Add provider"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
