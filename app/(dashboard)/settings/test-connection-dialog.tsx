"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Badge } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/field";
import { testProviderAction } from "@/lib/actions/settings";
import { formatMicros } from "@/lib/billing/money";
import { unwrap } from "@/lib/client/action-result";
import { formatDuration } from "@/lib/client/format";

/** "Test connection": one real call with this configuration, outside any check. */
export function TestConnectionDialog({ provider, onClose }: { provider: { id: string; name: string }; onClose: () => void }) {
  const [prompt, setPrompt] = useState("What is the best CRM for a small business?");
  const test = useMutation({ mutationFn: async () => unwrap(await testProviderAction({ providerConfigId: provider.id, prompt })) });
  const result = test.data;
  return (
    <Dialog open size="lg" onClose={onClose} title={`Test ${provider.name}`}>
      <form
        className="space-y-4 text-sm"
        onSubmit={(event) => {
          event.preventDefault();
          test.mutate();
        }}
      >
        <Field id="test-prompt" label="Question" hint="One call, billed like any other; not part of any check.">
          <Input id="test-prompt" value={prompt} onChange={(e) => setPrompt(e.target.value)} />
        </Field>
        <Button type="submit" pending={test.isPending}>Send</Button>
        {test.isError && <p className="text-red-600" role="alert">{test.error.message}</p>}
        {result && !result.ok && (
          <div className="rounded-md bg-red-50 p-3 text-red-800 ring-1 ring-red-200" role="status">
            <p className="font-medium">
              Failed: {result.error.reason} <Badge tone="red">{result.error.retryClass}</Badge> {result.error.httpStatus && <Badge>HTTP {result.error.httpStatus}</Badge>}
            </p>
            <p className="mt-1">{result.error.message}</p>
          </div>
        )}
        {result?.ok && (
          <div className="space-y-2 rounded-md bg-emerald-50 p-3 ring-1 ring-emerald-200" role="status">
            <p className="text-emerald-800">
              Answered in {formatDuration(result.latencyMs)} · {result.usage.inputTokens} in / {result.usage.outputTokens} out tokens · {result.usage.searchCalls} search(es) · {formatMicros(result.costMicros)}
            </p>
            <pre className="max-h-60 overflow-y-auto whitespace-pre-wrap font-sans text-slate-800">{result.text}</pre>
            {result.sources.length > 0 && <p className="text-xs text-slate-600">{result.sources.length} source(s): {result.sources.slice(0, 5).map((s) => s.url).join(", ")}</p>}
          </div>
        )}
      </form>
    </Dialog>
  );
}
