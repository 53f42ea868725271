"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { toast } from "@/lib/browser/toast";

// The tabs of one browser share its workspace cookie (lib/auth/session.ts), and an action works
// in the workspace the cookie names. So when the cookie changes in one tab (a switch, a new
// workspace, an invitation accepted, another account signed in), the others follow at once: a
// change made in a tab still showing the old workspace would land in the new one. Each dashboard
// tab tells the others the workspace it renders, the one the cookie names then.
const CHANNEL = "beacon-workspace";

/** Rendered once per dashboard tab: tells the others its workspace, and follows theirs. */
export function WorkspaceSync({ current }: { current: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof BroadcastChannel === "undefined") return;
    const channel = new BroadcastChannel(CHANNEL);
    channel.postMessage(current);
    // Followed once: other tabs rendering the same workspace meanwhile say it again.
    let following: unknown = current;
    channel.onmessage = (event: MessageEvent<unknown>) => {
      if (event.data === following) return;
      following = event.data;
      queryClient.clear(); // cached data belongs to the previous workspace
      router.push("/");
      router.refresh();
      toast.success("The workspace changed in another tab: this tab shows it now.");
    };
    return () => channel.close();
  }, [current, router, queryClient]);
  return null;
}
