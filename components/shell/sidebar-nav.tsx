"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";

const links = [
  { href: "/", label: "Overview" },
  { href: "/analytics/sources", label: "Sources" },
  { href: "/analytics/costs", label: "Costs" },
  { href: "/checks", label: "Checks" },
  { href: "/schedules", label: "Schedules" },
  { href: "/alerts", label: "Alerts" },
  { href: "/brands", label: "Brands" },
  { href: "/prompts", label: "Prompts" },
  { href: "/members", label: "Members" },
  { href: "/settings", label: "Settings" },
  { href: "/admin/jobs", label: "Jobs", admin: true },
  { href: "/instance", label: "Instance", operator: true },
];

/** `isOperator`: the signed-in user runs this instance (lib/instance/operators.ts) and sees its page. */
export function SidebarNav({ isAdmin, isOperator }: { isAdmin: boolean; isOperator: boolean }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="space-y-1">
      {links.filter((link) => (!link.admin || isAdmin) && (!link.operator || isOperator)).map((link) => {
        const active = link.href === "/" ? pathname === "/" : pathname.startsWith(link.href);
        return (
          <Link
            key={link.href}
            href={link.href}
            aria-current={active ? "page" : undefined}
            className={`block rounded-md px-3 py-2 text-sm font-medium ${active ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100"}`}
          >
            {link.label}
          </Link>
        );
      })}
    </nav>
  );
}
