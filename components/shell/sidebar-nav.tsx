"use client";
import { Link } from "@/components/ui/link";
import { usePathname } from "next/navigation";
import { useId } from "react";

type NavLink = { href: string; label: string };

// What a marketer works with.
const mainLinks: NavLink[] = [
  { href: "/", label: "Overview" },
  { href: "/analytics/sources", label: "Sources" },
  { href: "/analytics/costs", label: "Costs" },
  { href: "/traffic", label: "Traffic" },
  { href: "/checks", label: "Checks" },
  { href: "/schedules", label: "Schedules" },
  { href: "/alerts", label: "Alerts" },
  { href: "/brands", label: "Brands" },
  { href: "/prompts", label: "Prompts" },
  { href: "/members", label: "Members" },
  { href: "/settings", label: "Settings" },
];

function NavLinks({ links }: { links: NavLink[] }) {
  const pathname = usePathname();
  return (
    <ul className="space-y-1">
      {links.map((link) => {
        const active = link.href === "/" ? pathname === "/" : pathname.startsWith(link.href);
        return (
          <li key={link.href}>
            {/* 44 px tall on touch screens (the drawer), compact beside the sidebar. */}
            <Link
              href={link.href}
              aria-current={active ? "page" : undefined}
              className={`flex min-h-11 items-center rounded-md px-3 text-sm font-medium md:min-h-9 ${active ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100"}`}
            >
              {link.label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The marketer's menu, then "Operations" apart: the capture jobs for workspace admins and the
 * instance for its operators (`isOperator`: the signed-in user runs this instance,
 * lib/instance/operators.ts).
 */
export function SidebarNav({ isAdmin, isOperator }: { isAdmin: boolean; isOperator: boolean }) {
  const headingId = useId();
  const operations = [...(isAdmin ? [{ href: "/admin/jobs", label: "Jobs" }] : []), ...(isOperator ? [{ href: "/instance", label: "Instance" }] : [])];
  return (
    <div className="space-y-6">
      <nav aria-label="Main">
        <NavLinks links={mainLinks} />
      </nav>
      {operations.length > 0 && (
        <nav aria-labelledby={headingId}>
          <h2 id={headingId} className="mb-1 px-3 text-xs font-semibold uppercase tracking-wide text-slate-500">
            Operations
          </h2>
          <NavLinks links={operations} />
        </nav>
      )}
    </div>
  );
}
