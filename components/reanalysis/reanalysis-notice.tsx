"use client";
import { Link } from "@/components/ui/link";
import { toast } from "@/lib/browser/toast";
import { isOpen, type ReanalysisRun } from "@/lib/jobs/reanalysis-progress";
import { ReanalysisBar, runProgress } from "./reanalysis-bar";
import { useReanalysisQuery } from "./use-reanalysis";

/**
 * A dashboard's notice while its brand's history is analysed part with the brand's old inputs
 * (names, aliases, domains, competitors), part with the new: a brand edit queues a re-analysis of
 * every past answer, about 33 minutes at a million answers after a competitor's removal (the
 * answers naming it first: docs/benchmarks.md), and the charts mix the two meanwhile. Shows the
 * run's progress and time left, or its error once its job gave up; when it ends, the charts load
 * again. Printed too (a report sent on mixes them as much), without its bar and link.
 */
export function ReanalysisNotice({ brand }: { brand: { id: string; name: string } | null | undefined }) {
  // A run that failed stays in the notice below, with its error.
  const { data } = useReanalysisQuery((ended) => {
    if (brand && ended[brand.id]?.status === "completed") toast.success(`${brand.name}'s past answers are re-analysed: the charts now read every answer alike.`);
  });
  const run = brand ? data?.[brand.id] : undefined;
  if (!brand || !run || !(isOpen(run) || run.status === "failed")) return null;
  return (
    <div role="status" className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800 ring-1 ring-inset ring-amber-200">
      <p>
        <RunText brandName={brand.name} run={run} /> Until it is done, these numbers mix answers analysed with earlier and current settings.{" "}
        <Link href="/brands" className="font-medium underline print:hidden">
          Brands page
        </Link>
      </p>
      {isOpen(run) && <ReanalysisBar run={run} className="mt-2 bg-amber-100 print:hidden" fill="bg-amber-500" />}
    </div>
  );
}

function RunText({ brandName, run }: { brandName: string; run: ReanalysisRun }) {
  if (run.status === "failed")
    return <>Re-analysing {brandName}&apos;s past answers with its current names, domains and competitors failed ({run.error}); it can be tried again on the Brands page.</>;
  if (run.status === "queued") return <>{brandName}&apos;s past answers are waiting to be re-analysed with its current names, domains and competitors.</>;
  return (
    <>
      Re-analysing {brandName}&apos;s past answers with its current names, domains and competitors: {runProgress(run)}.
    </>
  );
}
