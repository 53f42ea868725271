import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { MobileNav } from "@/components/shell/mobile-nav";
import { ProductName } from "@/components/shell/product-name";
import { SidebarNav } from "@/components/shell/sidebar-nav";
import { canManageWorkspaceSettings } from "@/lib/permissions/permissions";
import { UserMenu } from "@/components/shell/user-menu";
import { WorkspaceSwitcher } from "@/components/shell/workspace-switcher";
import { WorkspaceSync } from "@/components/shell/workspace-sync";
import { getSessionUser, resolveWorkspace } from "@/lib/auth/session";
import { isOperator } from "@/lib/instance/operators";
import { listWorkspacesOf } from "@/lib/workspaces/workspaces";

// Reads the session on every request; never prerendered.
export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await getSessionUser();
  if (!user) redirect("/login");
  const resolved = await resolveWorkspace();
  // A cookie naming a workspace the user has left: actions refuse it (lib/auth/session.ts), so
  // it is cleared before this browser shows another workspace.
  if (resolved?.left) redirect("/workspace/left");
  const ctx = resolved?.ctx;
  if (!ctx) redirect("/welcome");
  const [workspaces, operator] = await Promise.all([listWorkspacesOf(user.id), isOperator(user.id)]);
  // The same content in the sidebar (from md) and in the drawer (below it).
  const navigation = (
    <>
      <WorkspaceSwitcher current={ctx.workspace.id} workspaces={workspaces} />
      <div className="flex-1">
        <SidebarNav isAdmin={canManageWorkspaceSettings(ctx)} isOperator={operator} />
      </div>
      <UserMenu name={user.name} email={user.email} role={ctx.role} />
    </>
  );
  return (
    <div className="min-h-full md:flex">
      <WorkspaceSync current={ctx.workspace.id} />
      <MobileNav>{navigation}</MobileNav>
      <aside className="sticky top-0 hidden h-screen w-60 shrink-0 flex-col gap-6 overflow-y-auto border-r border-slate-200 bg-surface p-4 md:flex print:hidden">
        <ProductName />
        {navigation}
      </aside>
      <main className="min-w-0 flex-1 px-4 py-6 sm:px-6 md:px-8 md:py-8 print:p-0">{children}</main>
    </div>
  );
}
