import { Link } from "@/components/ui/link";

/**
 * After the first check: one check is a snapshot and answers vary from day to day, so a schedule
 * is what turns it into a trend. Links to /schedules with the new-schedule dialog open.
 */
export function ScheduleSuggestion({ className = "" }: { className?: string }) {
  return (
    <section aria-labelledby="schedule-suggestion" className={`flex flex-wrap items-center justify-between gap-3 rounded-lg bg-brand-50 px-5 py-4 ring-1 ring-inset ring-brand-100 print:hidden ${className}`}>
      <div className="min-w-0 max-w-2xl">
        <h2 id="schedule-suggestion" className="text-sm font-semibold text-slate-900">
          Next: measure again automatically
        </h2>
        <p className="mt-0.5 text-sm text-slate-600">
          One check is a snapshot, and assistants answer a little differently each day. A schedule runs the same questions on the same providers every day or week, so the
          Overview shows a trend with enough answers behind it.
        </p>
      </div>
      <Link href="/schedules?new=1" className="inline-flex min-h-11 items-center rounded-md bg-brand-600 px-3.5 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700 dark:hover:bg-brand-500">
        Create a schedule
      </Link>
    </section>
  );
}
