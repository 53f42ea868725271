"use server";
import { workspaceAction } from "@/lib/actions/safe-action";
import { assertCan, canCheckSiteReadiness } from "@/lib/permissions/permissions";
import { requestSiteReadiness } from "@/lib/traffic/readiness-check";

// "Check site readiness" (docs/traffic.md): queues the check of the workspace's brand domains;
// the result appears when the worker has fetched them (readinessByDomain's `checking` says when).
export const checkSiteReadinessAction = workspaceAction.action(async ({ ctx }) => {
  assertCan(canCheckSiteReadiness(ctx), "Only admins can check site readiness.");
  await requestSiteReadiness(ctx.workspace.id);
});
