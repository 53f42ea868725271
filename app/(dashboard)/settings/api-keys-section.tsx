"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { toast } from "@/lib/browser/toast";
import { Button } from "@/components/ui/button";
import { useConfirm } from "@/components/ui/confirm-dialog";
import { Badge, Card, EmptyState } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { Field, Input, Select } from "@/components/ui/field";
import { SectionHeading } from "@/components/ui/section-heading";
import { actionsColumn, type Column } from "@/components/ui/table-columns";
import { useActionForm } from "@/components/forms/use-action-form";
import { createApiKeyAction, revokeApiKeyAction } from "@/lib/actions/api-keys";
import { createApiKeySchema } from "@/lib/api-keys/schemas";
import { API_KEY_SCOPE_DESCRIPTIONS, DEFAULT_API_KEY_SCOPE, type ApiKeyScope } from "@/lib/permissions/api-key-scopes";
import { apiKeyScopeRole } from "@/lib/permissions/permissions";
import { unwrap } from "@/lib/browser/action-result";
import { NewApiKey, OPENAPI_URL } from "./new-api-key";
import { apiKeysKey, useApiKeysQuery, type ApiKeyRow } from "./use-api-keys-query";
import { formatDateTime } from "@/lib/format";

const scopeTone = { read: "slate", write: "blue", admin: "amber" } as const;

/** The key's scope, and what it is held to when its member's role is lower (or gone). */
function ScopeCell({ apiKey }: { apiKey: ApiKeyRow }) {
  return (
    <div className="flex flex-wrap items-center gap-1.5">
      <Badge tone={scopeTone[apiKey.scope]}>{apiKey.scope}</Badge>
      {apiKey.actsAs === null ? (
        <span className="text-xs text-red-600">inactive: its member left</span>
      ) : (
        apiKey.actsAs !== apiKeyScopeRole(apiKey.scope) && <span className="text-xs text-slate-500">acts as {apiKey.actsAs} (its member&apos;s role)</span>
      )}
    </div>
  );
}

function CreateKeyForm({ scopes, onCreated }: { scopes: ApiKeyScope[]; onCreated: (key: { name: string; key: string; scope: ApiKeyScope }) => void }) {
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const form = useActionForm(createApiKeySchema, createApiKeyAction, {
    onSuccess: async (key) => {
      onCreated({ name: key.name, key: key.key, scope: key.scope });
      formRef.current?.reset();
      await queryClient.invalidateQueries({ queryKey: apiKeysKey });
    },
  });
  const defaultScope = scopes.includes(DEFAULT_API_KEY_SCOPE) ? DEFAULT_API_KEY_SCOPE : scopes[0];

  return (
    <form
      ref={formRef}
      noValidate
      className="flex flex-wrap items-start gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        const elements = event.currentTarget.elements;
        const name = (elements.namedItem("name") as HTMLInputElement).value;
        const scope = (elements.namedItem("scope") as HTMLSelectElement).value as ApiKeyScope;
        form.submit({ name, scope });
      }}
    >
      <div className="min-w-64 flex-1">
        <Field id="api-key-name" label="New key name" hint="What will use it, e.g. “Nightly CI”" error={form.error("name")}>
          <Input id="api-key-name" name="name" maxLength={60} autoComplete="off" invalid={!!form.error("name")} />
        </Field>
      </div>
      <div className="w-72">
        <Field id="api-key-scope" label="Scope" hint="A key never does more than you can." error={form.error("scope")}>
          <Select id="api-key-scope" name="scope" defaultValue={defaultScope} invalid={!!form.error("scope")}>
            {scopes.map((scope) => (
              <option key={scope} value={scope}>
                {scope}: {API_KEY_SCOPE_DESCRIPTIONS[scope]}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <Button type="submit" className="mt-6" pending={form.pending}>
        Create key
      </Button>
    </form>
  );
}

export function ApiKeysSection() {
  const [ask, confirmDialog] = useConfirm();
  const queryClient = useQueryClient();
  const query = useApiKeysQuery();
  const [created, setCreated] = useState<{ name: string; key: string; scope: ApiKeyScope } | null>(null);
  const revoke = useMutation({
    mutationFn: async (apiKeyId: string) => unwrap(await revokeApiKeyAction({ apiKeyId })),
    onSuccess: async () => {
      toast.success("API key revoked");
      await queryClient.invalidateQueries({ queryKey: apiKeysKey });
    },
    onError: (error) => toast.error(error.message),
  });
  const columns: Column<ApiKeyRow>[] = [
    { id: "name", header: "Name", className: "font-medium text-slate-900", cell: (k) => k.name },
    { id: "key", header: "Key", className: "font-mono text-xs text-slate-600", cell: (k) => `${k.prefix}_…` },
    { id: "scope", header: "Scope", cell: (k) => <ScopeCell apiKey={k} /> },
    { id: "created-by", header: "Created by", className: "text-slate-600", cell: (k) => k.createdBy?.name ?? "Unknown" },
    { id: "created", header: "Created", className: "whitespace-nowrap text-slate-600", cell: (k) => formatDateTime(k.createdAt) },
    { id: "last-used", header: "Last used", className: "whitespace-nowrap text-slate-600", cell: (k) => (k.lastUsedAt ? formatDateTime(k.lastUsedAt) : "Never") },
    actionsColumn((k) =>
      k.canRevoke ? (
        <Button
          variant="ghost"
          size="sm"
          aria-label={`Revoke ${k.name}`}
          disabled={revoke.isPending && revoke.variables === k.id}
          onClick={() => ask({ title: "Revoke API key?", body: `Revoke “${k.name}”? Anything using it stops working at once.`, confirmLabel: "Revoke", destructive: true }, () => revoke.mutate(k.id))}
        >
          Revoke
        </Button>
      ) : null,
    ),
  ];

  return (
    <section aria-labelledby="api-keys-heading" className="space-y-3">
      {confirmDialog}
      <SectionHeading
        id="api-keys-heading"
        title="API keys"
        description="Let scripts and CI read results and start checks through the REST API. A key acts for the member who created it, with its scope or that member's role, whichever is lower, and stops working when they leave the workspace."
        action={
          <a href={OPENAPI_URL} target="_blank" rel="noreferrer" className="text-sm font-medium text-brand-700 hover:underline">
            API reference (OpenAPI)
          </a>
        }
      />
      <Card className="space-y-4 p-5">
        {query.data && <CreateKeyForm scopes={query.data.scopes} onCreated={setCreated} />}
        {created && <NewApiKey name={created.name} apiKey={created.key} scope={created.scope} onDone={() => setCreated(null)} />}
      </Card>

      {query.isPending ? (
        <Card className="p-6 text-sm text-slate-500">Loading API keys…</Card>
      ) : query.isError ? (
        <Card className="p-6 text-sm text-red-600">Could not load API keys: {query.error.message}</Card>
      ) : !query.data.keys.length ? (
        <EmptyState title="No API keys yet" description="Create one above to call the REST API from a script or a CI job." />
      ) : (
        <Card className="overflow-hidden">
          <DataTable rows={query.data.keys} columns={columns} rowKey={(k) => k.id} />
        </Card>
      )}
    </section>
  );
}
