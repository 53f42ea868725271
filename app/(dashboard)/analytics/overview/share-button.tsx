"use client";
import dynamic from "next/dynamic";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import type { useAnalyticsFilters } from "../use-analytics-filters";

// Loaded on first open: its form's zod schema would otherwise be part of the Overview's JavaScript.
const ShareDialog = dynamic(() => import("./share-dialog").then((m) => m.ShareDialog), { ssr: false });

/** "Share": a read-only link to this brand's Overview with the filters on screen (admins). */
export function ShareButton({ filters }: { filters: ReturnType<typeof useAnalyticsFilters> }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="button" variant="secondary" className="print:hidden" onClick={() => setOpen(true)}>
        Share
      </Button>
      {open && <ShareDialog filters={filters} onClose={() => setOpen(false)} />}
    </>
  );
}
