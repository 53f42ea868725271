"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "@/lib/browser/toast";
import { Button } from "@/components/ui/button";
import { Badge, Card, EmptyState } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { SectionHeading } from "@/components/ui/section-heading";
import { actionsColumn, type Column } from "@/components/ui/table-columns";
import { revokeShareLinkAction } from "@/lib/actions/share-links";
import { unwrap } from "@/lib/browser/action-result";
import { shareLinksKey, useShareLinksQuery, type ShareLinkRow } from "./use-share-links-query";
import { formatDateTime } from "@/lib/format";

const statusTone = { active: "green", expired: "slate", revoked: "red" } as const;

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
  const columns: Column<ShareLinkRow>[] = [
    {
      id: "report",
      header: "Report",
      cell: (link) => (
        <>
          <p className="font-medium text-slate-900">{link.label || link.brand.name}</p>
          <p className="text-xs text-slate-500">{link.brand.name} · {link.period}{link.createdBy ? ` · by ${link.createdBy}` : ""}</p>
        </>
      ),
    },
    { id: "status", header: "Status", cell: (link) => <Badge tone={statusTone[link.status]}>{link.status}</Badge> },
    { id: "expires", header: "Expires", className: "text-slate-600", cell: (link) => formatDateTime(link.expiresAt) },
    {
      id: "views",
      header: "Views",
      numeric: true,
      className: "text-slate-600",
      cell: (link) => (
        <>
          {link.viewCount}
          {link.lastViewedAt && <span className="block text-xs text-slate-500">last {formatDateTime(link.lastViewedAt)}</span>}
        </>
      ),
    },
    actionsColumn((link) =>
      link.status === "active" ? (
        <Button
          type="button"
          size="sm"
          variant="danger"
          pending={revoke.isPending && revoke.variables === link.id}
          onClick={() => revoke.mutate(link.id)}
          aria-label={`Revoke ${link.label || link.brand.name}`}
        >
          Revoke
        </Button>
      ) : null,
    ),
  ];
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
        <Card className="overflow-hidden">
          <DataTable rows={query.data} columns={columns} rowKey={(link) => link.id} />
        </Card>
      )}
    </section>
  );
}
