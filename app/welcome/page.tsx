import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getSessionUser, getWorkspaceContext } from "@/lib/auth/session";
import { NoWorkspace } from "./no-workspace";

// Reads the session on every request; never prerendered.
export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Create a workspace" };

export default async function WelcomePage() {
  if (!(await getSessionUser())) redirect("/login");
  if (await getWorkspaceContext()) redirect("/");
  return <NoWorkspace />;
}
