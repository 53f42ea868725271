"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Badge, Card, EmptyState } from "@/components/ui/card";
import { SectionHeading } from "@/components/ui/section-heading";
import { revokeShareLinkAction } from "@/lib/actions/share-links";
import { unwrap } from "@/lib/browser/action-result";
import { shareLinksKey, useShareLinksQuery, type ShareLinkRow } from "./use-share-links-query";
import { formatDateTime } from "@/lib/format";

const statusTone = { active: "green", expired: "slate", revoked: "red" } as const;

function Row({ link, onRevoke, pending }: { link: ShareLinkRow; onRevoke: () => void; pending: boolean }) {
  return (
    <tr data-share-link={link.id}>
      <td className="px-4 py-3">
        <p className="font-medium text-slate-900">{link.label || link.brand.name}</p>
        <p className="text-xs text-slate-500">{link.brand.name} · {link.period}{link.createdBy ? ` · by ${link.createdBy}` : ""}</p>
      </td>
      <td className="px-4 py-3"><Badge tone={statusTone[link.status]}>{link.status}</Badge></td>
      <td className="px-4 py-3 text-slate-600">{formatDateTime(link.expiresAt)}</td>
      <td className="px-4 py-3 text-right tabular-nums text-slate-600">
        {link.viewCount}
        {link.lastViewedAt && <span className="block text-xs text-slate-500">last {formatDateTime(link.lastViewedAt)}</span>}
      </td>
      <td className="px-4 py-3 text-right">
        {link.status === "active" && (
          <Button type="button" size="sm" variant="danger" pending={pending} onClick={onRevoke} aria-label={`Revoke ${link.label || link.brand.name}`}>
            Revoke
          </Button>
        )}
      </td>
    </tr>
  );
}

/** The workspace's share links: status, views, revoke. New links are made from the Overview's Share button. */
export function ShareLinksSection() {
  const queryClient = useQueryClient();
  const query = useShareLinksQuery();
  const revoke = useMutation({
    mutationFn: async (shareLinkId: string) => unwrap(await revokeShareLinkAction({ shareLinkId })),
    onSuccess: async () => {
      toast.success("Share link revoked: it stops working at once");
      await queryClient.invalidateQueries({ queryKey: shareLinksKey });
    },
    onError: (error) => toast.error(error.message),
  });
  return (
    <section aria-labelledby="share-links-heading" className="space-y-3">
      <SectionHeading
        id="share-links-heading"
        title="Share links"
        description="Read-only links to a brand's Overview for people without an account. Create one with Share on the Overview; each expires after at most 90 days, and revoking one stops it at once."
      />
      {query.isPending ? (
        <Card className="p-6 text-sm text-slate-500">Loading share links…</Card>
      ) : query.isError ? (
        <Card className="p-6 text-sm text-red-600">Could not load share links: {query.error.message}</Card>
      ) : !query.data.length ? (
        <EmptyState title="No share links yet" description="Use Share on the Overview to send a client a read-only report." />
      ) : (
        <Card className="overflow-x-auto">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="px-4 py-3">Report</th>
                <th scope="col" className="px-4 py-3">Status</th>
                <th scope="col" className="px-4 py-3">Expires</th>
                <th scope="col" className="px-4 py-3 text-right">Views</th>
                <th scope="col" className="px-4 py-3"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {query.data.map((link) => (
                <Row key={link.id} link={link} pending={revoke.isPending && revoke.variables === link.id} onRevoke={() => revoke.mutate(link.id)} />
              ))}
            </tbody>
          </table>
        </Card>
      )}
    </section>
  );
}
