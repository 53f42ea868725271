import { Link } from "@/components/ui/link";
import { EmptyState } from "@/components/ui/card";

/** What an analytics page shows before the workspace tracks any brand. */
export function NoBrand() {
  return (
    <EmptyState
      title="Add your brand to start measuring"
      description="Describe your brand and its competitors, write the prompts your buyers ask, then run a check."
      action={
        <div className="flex gap-2">
          <Link href="/setup" className="rounded-md bg-brand-600 px-3.5 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700 dark:hover:bg-brand-500">
            Set up from your website
          </Link>
          <Link href="/brands" className="rounded-md px-3.5 py-2 text-sm font-medium text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50">
            Add a brand by hand
          </Link>
        </div>
      }
    />
  );
}
