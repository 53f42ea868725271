import type { ReactNode } from "react";
import { AlertsNav } from "./alerts-nav";

export default function AlertsLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <AlertsNav />
      {children}
    </>
  );
}
