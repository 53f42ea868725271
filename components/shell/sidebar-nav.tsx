"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";

const links = [
  { href: "/", label: "Overview" },
  { href: "/analytics/sources", label: "Sources" },
  { href: "/analytics/costs", label: "Costs" },
  { href: "/checks", label: "Checks" },
  { href: "/schedules", label: "Schedules" },
  { href: "/brands", label: "Brands" },
  { href: "/prompts", label: "Prompts" },
  { href: "/members", label: "Members" },
  { href: "/settings", label: "Settings", admin: true },
  { href: "/admin/jobs", label: "Jobs", admin: true },
];

export function SidebarNav({ isAdmin }: { isAdmin: boolean }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="space-y-1">
      {links.filter((link) => !link.admin || isAdmin).map((link) => {
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
