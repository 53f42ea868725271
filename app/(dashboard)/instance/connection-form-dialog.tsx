"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { toast } from "@/lib/browser/toast";
import { z } from "zod";
import { Dialog, FormActions } from "@/components/ui/dialog";
import { Field, Input, Select, Textarea } from "@/components/ui/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { createConnectionAction, updateConnectionAction } from "@/lib/actions/instance";
import type { EngineChoice } from "@/lib/providers/labels";
import { connectionInputSchemaFor } from "@/lib/providers/schemas";
import { connectionFormDefaults, readConnectionForm } from "./connection-form-values";
import { instanceKey, type ConnectionRow } from "./use-instance-query";

const styles = { chatgpt: "ChatGPT", perplexity: "Perplexity", gemini: "Gemini", claude: "Claude", overview: "Google AI Overview" };


const fieldId = (path: string) => `connection-${path.replace(/\./g, "-")}`;

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

/**
 * Create or edit a connection: every field of connectionInputSchema, in the units of pricing
 * pages. `engines`: the adapters to offer, the server's (lib/providers/registry.ts engineChoices).
 */
export function ConnectionFormDialog({ connection, engines, onClose }: { connection?: ConnectionRow; engines: EngineChoice[]; onClose: () => void }) {
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const schema = useMemo(() => {
    const adapters = engines.map((e) => e.name) as [string, ...string[]];
    return z.object({ connectionId: z.uuid().optional(), version: z.date().optional(), connection: connectionInputSchemaFor(adapters) });
  }, [engines]);
  const [defaults] = useState(() => connectionFormDefaults(engines, connection));
  const [adapter, setAdapter] = useState(defaults.adapter);
  // Text the form could not read as a number in its unit; shown before the schema's messages.
  const [parseErrors, setParseErrors] = useState<Record<string, string>>({});
  const form = useActionForm(
    schema,
    async ({ connectionId, version, connection: input }) => (connectionId ? updateConnectionAction({ connectionId, version, connection: input }) : createConnectionAction(input)),
    {
      onSuccess: async () => {
        toast.success(connection ? "Connection saved" : "Connection added");
        await queryClient.invalidateQueries({ queryKey: instanceKey });
        onClose();
      },
      reloadOnConflict: instanceKey,
    },
  );
  const error = (path: string) => parseErrors[path] ?? form.error(`connection.${path}`) ?? form.error(path);
  // A model that is too long is reported on its index ("connection.models.2").
  const modelsKey = Object.keys(form.errors).find((key) => /^connection\.models\.\d+$/.test(key));
  const modelsError = error("models") ?? (modelsKey ? form.error(modelsKey) : undefined);

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
    <Dialog open size="lg" onClose={onClose} title={connection ? `Edit ${connection.name}` : "Add a connection"}>
      <form
        ref={formRef}
        noValidate
        className="space-y-5"
        onSubmit={(event) => {
          event.preventDefault();
          const { connection: input, errors } = readConnectionForm(new FormData(event.currentTarget));
          setParseErrors(errors);
          // As opened: an edit saved since (another operator's disable) refuses this save instead of being undone.
          form.submit({ connectionId: connection?.id, version: connection?.updatedAt, connection: input });
        }}
      >
        <Section
          legend="Basics"
          description={
            adapter === "openai_compatible"
              ? "The API key comes from this server's environment, never from this form: name its variable below."
              : "The API key and base URL come from this server's environment (docs/operating.md, Configuration), never from this form."
          }
        >
          <Field id={fieldId("name")} label="Name" hint="Unique on this server" error={error("name")}>
            <Input id={fieldId("name")} name="name" defaultValue={defaults.name} maxLength={60} autoComplete="off" invalid={!!error("name")} />
          </Field>
          <Field id={fieldId("adapter")} label="Adapter" error={error("adapter")}>
            <Select id={fieldId("adapter")} name="adapter" value={adapter} onChange={(e) => setAdapter(e.target.value as typeof adapter)}>
              {engines.map(({ name, label }) => (
                <option key={name} value={name}>
                  {name === "simulator" ? "Simulator (no API calls)" : label}
                </option>
              ))}
            </Select>
          </Field>
          <Checkbox name="enabled" label="Enabled: workspaces granted this connection can run checks on it" defaultChecked={defaults.enabled} />
          <Checkbox name="grantedToAll" label="Granted to every workspace, without a grant each (as the simulators are)" defaultChecked={defaults.grantedToAll} />
        </Section>

        {adapter === "openai_compatible" && (
          <Section
            legend="Server"
            description="Any server that speaks OpenAI's chat completions: DeepSeek, xAI (Grok), Mistral, or a local vLLM or Ollama. There is no web search to ask for: a provider's search mode is ignored, and sources are kept only when the server reports them. Enter the prices below from the server's pricing page (0 for your own hardware)."
          >
            <div className="col-span-2">
              <Field
                id={fieldId("openaiCompatible.baseURL")}
                label="Base URL"
                hint="The part before /chat/completions: https://api.deepseek.com, https://api.x.ai/v1, https://api.mistral.ai/v1, http://localhost:8000/v1 (vLLM), http://localhost:11434/v1 (Ollama)"
                error={error("openaiCompatible.baseURL")}
              >
                <Input
                  id={fieldId("openaiCompatible.baseURL")}
                  name="openaiCompatible.baseURL"
                  type="url"
                  defaultValue={defaults.openaiCompatible.baseURL}
                  maxLength={500}
                  autoComplete="off"
                  className="font-mono"
                  invalid={!!error("openaiCompatible.baseURL")}
                />
              </Field>
            </div>
            <div className="col-span-2">
              <Field
                id={fieldId("openaiCompatible.apiKeyEnv")}
                label="API key variable"
                hint="The environment variable on this server that holds the key, e.g. OPENAI_COMPATIBLE_DEEPSEEK_KEY (it must start with OPENAI_COMPATIBLE_). Leave empty for a server without a key."
                error={error("openaiCompatible.apiKeyEnv")}
              >
                <Input
                  id={fieldId("openaiCompatible.apiKeyEnv")}
                  name="openaiCompatible.apiKeyEnv"
                  defaultValue={defaults.openaiCompatible.apiKeyEnv}
                  maxLength={100}
                  autoComplete="off"
                  spellCheck={false}
                  className="font-mono"
                  invalid={!!error("openaiCompatible.apiKeyEnv")}
                />
              </Field>
            </div>
          </Section>
        )}

        <Section legend="Models" description="The models workspaces may pick. Taking one off disables the providers that use it.">
          <div className="col-span-2">
            <Field id={fieldId("models")} label="Allowed models" hint="One per line (or separated by commas); the first is the default for new providers" error={modelsError}>
              <Textarea id={fieldId("models")} name="models" rows={3} defaultValue={defaults.models} className="font-mono" invalid={!!modelsError} />
            </Field>
          </div>
        </Section>

        <Section legend="Prices" description="In US dollars, as on the provider's pricing page. Every workspace's cost estimates, budget and grant limits use them.">
          {number("inputPricePerMTokMicros", "Input, per 1M tokens")}
          {number("outputPricePerMTokMicros", "Output, per 1M tokens")}
          {number("cachedPricePerMTokMicros", "Cached input, per 1M tokens")}
          {number("reasoningPricePerMTokMicros", "Reasoning, per 1M tokens")}
          {number("searchPriceMicros", "Web search, per 1,000 searches")}
        </Section>

        <Section
          legend="Limits and retries"
          description="The concurrency cap counts calls from every workspace and worker together. Max output tokens and searches are sent with every call, so no call can cost more than the worst case budgets reserve for it."
        >
          {number("maxConcurrency", "Max concurrency", "Calls in flight at once, all workspaces together")}
          {number("maxAttempts", "Max attempts", "Including the first call")}
          {number("unknownRetries", "Unknown-outcome retries", "When a call may have been billed")}
          {number("timeoutMs", "Timeout (seconds)", "Per attempt")}
          {number("maxOutputTokens", "Max output tokens", "Reasoning included; budgets reserve this many per call (1 to 200,000)")}
          {number("maxSearchCalls", "Max searches per call", "0 turns search off; budgets reserve this many per call (0 to 20)")}
        </Section>

        <Section legend="Circuit breaker" description="One per model of the connection: stops calling a model that keeps failing, then lets one probe call through after a pause.">
          {number("breakerWindowSize", "Window size (calls)")}
          {number("breakerMinCalls", "Minimum calls", "Before the rate counts")}
          {number("breakerFailureRatePct", "Failure rate to open (%)")}
          {number("breakerOpenSeconds", "Open for (seconds)")}
          {number("breakerSlowCallMs", "Slow call (ms)")}
          {number("breakerProbeTimeoutMs", "Breaker probe timeout (ms)", "Short, so a probe that hangs does not hold the connection (1,000 to 600,000)")}
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
            {number("simulator.noAnswerRate", "No answer shown (%)")}
          </Section>
        )}

        <FormActions onCancel={onClose} pending={form.pending} submitLabel={connection ? "Save" : "Add connection"} className="sticky bottom-0 -mx-6 -mb-6  border-t border-slate-200 bg-surface px-6 py-4" />
      </form>
    </Dialog>
  );
}
