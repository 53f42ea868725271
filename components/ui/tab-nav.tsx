"use client";
import { Link } from "@/components/ui/link";

export type Tab = { href: string; label: string; active: boolean };

/**
 * A section's tabs under its page title (PageHeader `tabs`): links, so each tab has an address,
 * the back button works and a tab opens in a new window; the current one is aria-current.
 */
export function TabNav({ label, tabs }: { label: string; tabs: Tab[] }) {
  return (
    <nav aria-label={label} className="flex gap-1 overflow-x-auto border-b border-slate-200">
      {tabs.map((tab) => (
        <Link
          key={tab.href}
          href={tab.href}
          aria-current={tab.active ? "page" : undefined}
          className={`-mb-px flex min-h-11 shrink-0 items-center border-b-2 px-3 text-sm md:min-h-9 font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 ${
            tab.active ? "border-brand-600 text-brand-700" : "border-transparent text-slate-600 hover:text-slate-900"
          }`}
        >
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}
