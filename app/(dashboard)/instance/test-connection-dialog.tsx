"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Badge } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input, Select } from "@/components/ui/field";
import { testConnectionAction } from "@/lib/actions/instance";
import { formatDuration, formatMicros } from "@/lib/format";
import { unwrap } from "@/lib/browser/action-result";

/** "Test connection": one real call with the connection's settings and the model picked, outside any check and budget. */
export function TestConnectionDialog({ connection, onClose }: { connection: { id: string; name: string; models: string[] }; onClose: () => void }) {
  const [model, setModel] = useState(connection.models[0] ?? "");
  const [prompt, setPrompt] = useState("What is the best CRM for a small business?");
  const test = useMutation({ mutationFn: async () => unwrap(await testConnectionAction({ connectionId: connection.id, model, prompt })) });
  const result = test.data;
  return (
    <Dialog open size="lg" onClose={onClose} title={`Test ${connection.name}`}>
      <form
        className="space-y-4 text-sm"
        onSubmit={(event) => {
          event.preventDefault();
          test.mutate();
        }}
      >
        <Field id="test-model" label="Model">
          <Select id="test-model" value={model} onChange={(e) => setModel(e.target.value)}>
            {connection.models.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="test-prompt" label="Question" hint="One call with this server's API key, billed by the provider like any other; not part of any check or workspace budget.">
          <Input id="test-prompt" value={prompt} onChange={(e) => setPrompt(e.target.value)} />
        </Field>
        <Button type="submit" pending={test.isPending}>
          Send
        </Button>
        {test.isError && (
          <p className="text-red-600" role="alert">
            {test.error.message}
          </p>
        )}
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
            {result.sources.length > 0 && (
              <p className="text-xs text-slate-600">
                {result.sources.length} source(s):{" "}
                {result.sources
                  .slice(0, 5)
                  .map((s) => s.url)
                  .join(", ")}
              </p>
            )}
          </div>
        )}
      </form>
    </Dialog>
  );
}
