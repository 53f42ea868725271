"use client";
import { Button } from "@/components/ui/button";

/** Opens the browser's print dialog; "Save as PDF" is one of its printers. Never printed itself. */
export function PrintButton() {
  return (
    <Button type="button" variant="secondary" className="print:hidden" onClick={() => window.print()}>
      Print / save as PDF
    </Button>
  );
}
