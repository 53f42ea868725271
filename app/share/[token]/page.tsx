import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { openSharedReport } from "@/lib/share-links/report";
import { SharedOverview } from "./shared-overview";

// Outside the dashboard layout: no session, no navigation. The token is the only authorization
// (lib/share-links/report.ts); next.config.ts adds no-referrer, noindex and no-store headers.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Shared report",
  robots: { index: false, follow: false, nocache: true },
  referrer: "no-referrer",
};

export default async function Page({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const report = await openSharedReport(token);
  // Unknown, revoked, expired, or its brand deleted: one and the same page.
  if (!report) notFound();
  return <SharedOverview report={report} token={token} />;
}
