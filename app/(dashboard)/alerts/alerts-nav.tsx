"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";

// The Alerts section's own tabs, under each page's title (PageHeader `tabs`): rules and their
// firings, where messages go, what was sent.
const tabs = [
  { href: "/alerts", label: "Rules" },
  { href: "/alerts/channels", label: "Channels" },
  { href: "/alerts/deliveries", label: "Delivery log" },
];

export function AlertsNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Alerts" className="flex gap-1 overflow-x-auto border-b border-slate-200">
      {tabs.map((tab) => {
        const active = pathname === tab.href;
        return (
          <Link
            key={tab.href}
            href={tab.href}
            aria-current={active ? "page" : undefined}
            className={`-mb-px flex min-h-11 shrink-0 items-center border-b-2 px-3 text-sm md:min-h-9 font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 ${
              active ? "border-brand-600 text-brand-700" : "border-transparent text-slate-600 hover:text-slate-900"
            }`}
          >
            {tab.label}
          </Link>
        );
      })}
    </nav>
  );
}
