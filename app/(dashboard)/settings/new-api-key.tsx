"use client";
import { toast } from "@/lib/browser/toast";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/field";
import type { ApiKeyScope } from "@/lib/permissions/api-key-scopes";
import { useProvidersQuery } from "./use-settings-queries";

export const OPENAPI_URL = "/api/v1/openapi.json";

export function CopyButton({ text, label, what }: { text: string; label: string; what: string }) {
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

/** The key just created, shown once, with a first request it is allowed to make. */
export function NewApiKey({ name, apiKey, scope, onDone }: { name: string; apiKey: string; scope: ApiKeyScope; onDone: () => void }) {
  const providers = useProvidersQuery();
  const provider = providers.data?.find((p) => p.enabled)?.name ?? "ChatGPT";
  const origin = window.location.origin;
  const curl =
    scope === "read"
      ? [`curl ${origin}/api/v1/checks`, `  -H "Authorization: Bearer ${apiKey}"`].join(" \\\n")
      : [
          `curl -X POST ${origin}/api/v1/checks`,
          `  -H "Authorization: Bearer ${apiKey}"`,
          `  -H "Idempotency-Key: $(uuidgen)"`,
          `  -H "content-type: application/json"`,
          `  -d ${shellQuote(JSON.stringify({ providers: [provider] }))}`,
        ].join(" \\\n");

  return (
    <div className="space-y-3 rounded-md bg-emerald-50 p-4 text-sm ring-1 ring-emerald-200" role="status">
      <p className="text-emerald-900">
        Your new {scope} key <strong>{name}</strong>. Copy it now: it is shown only once, and Beacon keeps only a hash of it.
      </p>
      <div className="flex gap-2">
        <Input readOnly value={apiKey} aria-label="New API key" className="font-mono" onFocus={(e) => e.currentTarget.select()} />
        <CopyButton text={apiKey} label="Copy API key" what="Key" />
      </div>
      <div>
        <p className="mb-1 text-emerald-900">{scope === "read" ? "List checks with it:" : "Start a check with it:"}</p>
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
