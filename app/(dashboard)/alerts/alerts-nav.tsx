"use client";
import { usePathname } from "next/navigation";
import { TabNav } from "@/components/ui/tab-nav";

// The Alerts section's own tabs, under each page's title (PageHeader `tabs`): rules and their
// firings, where messages go, what was sent.
const tabs = [
  { href: "/alerts", label: "Rules" },
  { href: "/alerts/channels", label: "Channels" },
  { href: "/alerts/deliveries", label: "Delivery log" },
];

export function AlertsNav() {
  const pathname = usePathname();
  return <TabNav label="Alerts" tabs={tabs.map((tab) => ({ ...tab, active: pathname === tab.href }))} />;
}
