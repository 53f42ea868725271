"use client";
import { useEffect, useState, type ComponentType } from "react";
import type { ToasterProps } from "sonner";
import { onToastsLoaded, toasterMounted } from "@/lib/browser/toast";

/** Sonner's <Toaster>, mounted when the first toast has loaded sonner (lib/browser/toast.ts). */
export function Toaster() {
  const [SonnerToaster, setSonnerToaster] = useState<ComponentType<ToasterProps> | null>(null);
  useEffect(() => onToastsLoaded((sonner) => setSonnerToaster(() => sonner.Toaster)), []);
  // After the Toaster's own effects: it has subscribed to the toasts.
  useEffect(() => {
    if (SonnerToaster) toasterMounted();
  }, [SonnerToaster]);
  return SonnerToaster && <SonnerToaster richColors position="bottom-right" closeButton />;
}
