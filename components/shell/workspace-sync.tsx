"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { toast } from "@/lib/browser/toast";

// The tabs of one browser share its workspace cookie (lib/auth/session.ts), and an action works
// in the workspace the cookie names. So when one tab switches workspace, the others follow at
// once: a change made in a tab still showing the old workspace would land in the new one.
const CHANNEL = "beacon-workspace";

/** Tells this browser's other tabs that it now works in `workspaceId`. */
export function announceWorkspace(workspaceId: string): void {
  if (typeof BroadcastChannel === "undefined") return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage(workspaceId);
  channel.close();
}

/** Rendered once per dashboard tab: follows a switch made in another tab. */
export function WorkspaceSync({ current }: { current: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof BroadcastChannel === "undefined") return;
    const channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = (event: MessageEvent<unknown>) => {
      if (event.data === current) return;
      queryClient.clear(); // cached data belongs to the previous workspace
      router.push("/");
      router.refresh();
      toast.success("You switched workspace in another tab: this tab shows it now.");
    };
    return () => channel.close();
  }, [current, router, queryClient]);
  return null;
}
