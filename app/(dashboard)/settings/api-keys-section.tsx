"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { toast } from "sonner";
import { apiKeyNameSchema } from "@/lib/api-keys/schemas";
import { Button } from "@/components/ui/button";
import { Card, EmptyState } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { createApiKeyAction, revokeApiKeyAction } from "@/lib/actions/settings";
import { unwrap } from "@/lib/client/action-result";
import { SectionHeading } from "./section-heading";
import { apiKeysKey, useApiKeysQuery, useProvidersQuery } from "./use-settings-queries";

const createSchema = apiKeyNameSchema;

const OPENAPI_URL = "/api/v1/openapi.json";

const formatDate = (date: Date | string) => new Date(date).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

function CopyButton({ text, label, what }: { text: string; label: string; what: string }) {
  return (
    <Button
      type="button"
      variant="secondary"
      aria-label={label}
      onClick={() =>
        navigator.clipboard.writeText(text).then(
          () => toast.success(`${what} copied`),
          () => toast.error(`Could not copy; select the ${what.toLowerCase()} and copy it by hand`),
        )
      }
    >
      Copy
    </Button>
  );
}

// Single quotes end a shell string; this writes one as '\'' inside it.
const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function NewKey({ name, apiKey, onDone }: { name: string; apiKey: string; onDone: () => void }) {
  const providers = useProvidersQuery();
  const provider = providers.data?.find((p) => p.enabled)?.name ?? "ChatGPT";
  const curl = [
    `curl -X POST ${window.location.origin}/api/v1/checks`,
    `  -H "Authorization: Bearer ${apiKey}"`,
    `  -H "Idempotency-Key: $(uuidgen)"`,
    `  -H "content-type: application/json"`,
    `  -d ${shellQuote(JSON.stringify({ providers: [provider] }))}`,
  ].join(" \\\n");

  return (
    <div className="space-y-3 rounded-md bg-emerald-50 p-4 text-sm ring-1 ring-emerald-200" role="status">
      <p className="text-emerald-900">
        Your new key <strong>{name}</strong>. Copy it now: it is shown only once, and Beacon keeps only a hash of it.
      </p>
      <div className="flex gap-2">
        <Input readOnly value={apiKey} aria-label="New API key" className="font-mono" onFocus={(e) => e.currentTarget.select()} />
        <CopyButton text={apiKey} label="Copy API key" what="Key" />
      </div>
      <div>
        <p className="mb-1 text-emerald-900">Start a check with it:</p>
        <div className="flex items-start gap-2">
          <pre className="min-w-0 flex-1 overflow-x-auto rounded-md bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100">{curl}</pre>
          <CopyButton text={curl} label="Copy curl example" what="Command" />
        </div>
        <p className="mt-1 text-xs text-emerald-900">
          Every endpoint is described in the{" "}
          <a href={OPENAPI_URL} target="_blank" rel="noreferrer" className="font-medium underline">
            OpenAPI document
          </a>
          .
        </p>
      </div>
      <Button type="button" variant="secondary" size="sm" onClick={onDone}>
        Done, I saved it
      </Button>
    </div>
  );
}

export function ApiKeysSection() {
  const queryClient = useQueryClient();
  const query = useApiKeysQuery();
  const formRef = useRef<HTMLFormElement>(null);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const form = useActionForm(createSchema, createApiKeyAction, {
    onSuccess: async (key) => {
      setCreated({ name: key.name, key: key.key });
      formRef.current?.reset();
      await queryClient.invalidateQueries({ queryKey: apiKeysKey });
    },
  });
  const revoke = useMutation({
    mutationFn: async (apiKeyId: string) => unwrap(await revokeApiKeyAction({ apiKeyId })),
    onSuccess: async () => {
      toast.success("API key revoked");
      await queryClient.invalidateQueries({ queryKey: apiKeysKey });
    },
    onError: (error) => toast.error(error.message),
  });

  return (
    <section aria-labelledby="api-keys-heading" className="space-y-3">
      <SectionHeading
        id="api-keys-heading"
        title="API keys"
        description="Let scripts and CI start checks and read results through the REST API. A key acts for the whole workspace."
        action={
          <a href={OPENAPI_URL} target="_blank" rel="noreferrer" className="text-sm font-medium text-brand-700 hover:underline">
            API reference (OpenAPI)
          </a>
        }
      />
      <Card className="space-y-4 p-5">
        <form
          ref={formRef}
          noValidate
          className="flex flex-wrap items-start gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            const input = event.currentTarget.elements.namedItem("name") as HTMLInputElement;
            form.submit({ name: input.value });
          }}
        >
          <div className="min-w-64 flex-1">
            <Field id="api-key-name" label="New key name" hint="What will use it, e.g. “Nightly CI”" error={form.error("name")}>
              <Input id="api-key-name" name="name" maxLength={60} autoComplete="off" invalid={!!form.error("name")} />
            </Field>
          </div>
          <Button type="submit" className="mt-6" pending={form.pending}>
            Create key
          </Button>
        </form>
        {created && <NewKey name={created.name} apiKey={created.key} onDone={() => setCreated(null)} />}
      </Card>

      {query.isPending ? (
        <Card className="p-6 text-sm text-slate-500">Loading API keys…</Card>
      ) : query.isError ? (
        <Card className="p-6 text-sm text-red-600">Could not load API keys: {query.error.message}</Card>
      ) : !query.data.length ? (
        <EmptyState title="No API keys yet" description="Create one above to call the REST API from a script or a CI job." />
      ) : (
        <Card className="overflow-x-auto">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="px-4 py-3">Name</th>
                <th scope="col" className="px-4 py-3">Key</th>
                <th scope="col" className="px-4 py-3">Created</th>
                <th scope="col" className="px-4 py-3">Last used</th>
                <th scope="col" className="px-4 py-3"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {query.data.map((k) => (
                <tr key={k.id} className="hover:bg-slate-50">
                  <td className="px-4 py-3 font-medium text-slate-900">{k.name}</td>
                  <td className="px-4 py-3 font-mono text-xs text-slate-600">{k.prefix}_…</td>
                  <td className="whitespace-nowrap px-4 py-3 text-slate-600">{formatDate(k.createdAt)}</td>
                  <td className="whitespace-nowrap px-4 py-3 text-slate-600">{k.lastUsedAt ? formatDate(k.lastUsedAt) : "Never"}</td>
                  <td className="px-4 py-3 text-right">
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`Revoke ${k.name}`}
                      disabled={revoke.isPending && revoke.variables === k.id}
                      onClick={() => window.confirm(`Revoke “${k.name}”? Anything using it stops working at once.`) && revoke.mutate(k.id)}
                    >
                      Revoke
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
    </section>
  );
}
