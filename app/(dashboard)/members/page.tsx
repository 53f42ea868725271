import type { Metadata } from "next";
import { canManageMembers, canManageOwners } from "@/lib/permissions/permissions";
import { requirePageContext } from "@/lib/auth/session";
import { MembersPage } from "./members-page";

export const metadata: Metadata = { title: "Members" };

export default async function Page() {
  const ctx = await requirePageContext();
  return <MembersPage canManage={canManageMembers(ctx)} canManageOwners={canManageOwners(ctx)} />;
}
