"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "@/lib/browser/toast";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { SectionHeading } from "@/components/ui/section-heading";
import { getSiteKeyAction, rotateSiteKeyAction } from "@/lib/actions/traffic";
import { unwrap } from "@/lib/browser/action-result";
import { formatDateTime } from "@/lib/format";
import { CopyButton } from "./new-api-key";

const siteKeyKey = ["site-key"] as const;

/** The workspace's site key for the visits script, the snippet to paste into a site, create and rotate (admins). */
export function SiteKeySection() {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: siteKeyKey, queryFn: async () => unwrap(await getSiteKeyAction()) });
  const [confirming, setConfirming] = useState(false);
  const rotate = useMutation({
    mutationFn: async (replacing: string | null) => unwrap(await rotateSiteKeyAction({ replacing })),
    onSuccess: async (result, replacing) => {
      setConfirming(false);
      if (!result.changed) toast.success(replacing ? "The site key was already rotated: this is the new one" : "The site key already exists");
      else toast.success(replacing ? "Site key rotated: put the new snippet on your sites" : "Site key created");
      await queryClient.invalidateQueries({ queryKey: siteKeyKey });
    },
    onError: (error) => toast.error(error.message),
  });
  const key = query.data;
  const snippet = key ? `<script src="${window.location.origin}/t.js" data-site="${key.key}" async></script>` : "";
  return (
    <section aria-labelledby="site-key-heading" className="space-y-3">
      <SectionHeading
        id="site-key-heading"
        title="Visits from AI assistants"
        description="Add this script to your site's pages to count the visits ChatGPT, Perplexity, Gemini, Claude and other assistants send to them. No cookies and nothing about the visitor: only the page, the assistant and the day, for your brands' own domains."
      />
      <Card className="space-y-4 p-5">
        {query.isPending ? (
          <p className="text-sm text-slate-500">Loading…</p>
        ) : key ? (
          <>
            <div className="flex items-start gap-2">
              <pre aria-label="Visits script snippet" className="min-w-0 flex-1 overflow-x-auto rounded-md bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100">{snippet}</pre>
              <CopyButton text={snippet} label="Copy script snippet" what="Snippet" />
            </div>
            <p className="text-xs text-slate-500">Site key created {formatDateTime(key.createdAt)}. The key is public (it is in your pages); it only says which workspace a visit belongs to.</p>
            <Button type="button" variant="secondary" onClick={() => setConfirming(true)}>Rotate site key</Button>
          </>
        ) : (
          <Button type="button" pending={rotate.isPending} onClick={() => rotate.mutate(null)}>Create site key</Button>
        )}
      </Card>
      <ConfirmDialog
        open={confirming}
        title="Rotate the site key?"
        confirmLabel="Rotate"
        destructive
        pending={rotate.isPending}
        onConfirm={() => rotate.mutate(query.data?.key ?? null)}
        onCancel={() => setConfirming(false)}
      >
        <p>The current key stops counting visits at once. Sites keep reporting nothing until they carry the new snippet.</p>
      </ConfirmDialog>
    </section>
  );
}
