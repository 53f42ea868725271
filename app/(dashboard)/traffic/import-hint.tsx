import { Link } from "@/components/ui/link";
import { EmptyState } from "@/components/ui/card";

const CLI = `npm run --silent beacon -- traffic import access.log.gz \\
  --workspace <your-workspace> --key access-2026-12-08`;
const API = `curl -X POST -H "Authorization: Bearer $BEACON_API_KEY" \\
  -H "Idempotency-Key: access-2026-12-08" \\
  -H "Content-Encoding: gzip" --data-binary @access.log.gz \\
  "$BEACON_URL/api/v1/traffic/logs?host=example.com"`;

/** The page before any access log was imported: how to import one. */
export function ImportHint() {
  return (
    <EmptyState
      title="Import your site's access logs"
      description={
        <>
          Beacon counts the requests of AI crawlers (GPTBot, ClaudeBot, PerplexityBot, …) to your brands&apos; domains from your own logs: nginx or Apache
          combined, Cloudflare Logpush, Vercel or Netlify log drains, or CSV. Nothing personal is stored.
        </>
      }
      action={
        <div className="mx-auto w-full max-w-2xl space-y-3 text-left text-sm text-slate-700">
          <p>From the server running Beacon:</p>
          <pre className="overflow-x-auto rounded-md bg-slate-100 p-3 text-xs text-slate-800" tabIndex={0} aria-label="Import with the command line">{CLI}</pre>
          <p>
            Or over the API, with a key of the <code>write</code> scope (
            <Link href="/settings" className="font-medium text-brand-700 underline underline-offset-2">Settings</Link>, API keys):
          </p>
          <pre className="overflow-x-auto rounded-md bg-slate-100 p-3 text-xs text-slate-800" tabIndex={0} aria-label="Import over the API">{API}</pre>
          <p className="text-xs text-slate-500">
            A key names the file: sent again with the same key (after a dropped connection), a log is counted once. Formats, limits and verification:
            docs/traffic.md in Beacon&apos;s documentation.
          </p>
        </div>
      }
    />
  );
}
