import { Link } from "@/components/ui/link";

/** The empty state of a chart: what to do to get data into it. */
export function EmptyHint({ brandName, canStart, what = "answers" }: { brandName: string; canStart: boolean; what?: string }) {
  return (
    <>
      No {what} about {brandName} match these filters.{" "}
      {canStart ? (
        <>
          <Link href="/checks/new" className="font-medium text-brand-700 hover:underline">Run a check</Link> to see how AI assistants talk about {brandName}, or widen the dates.
        </>
      ) : (
        "Widen the dates or clear the provider and tag filters."
      )}
    </>
  );
}
