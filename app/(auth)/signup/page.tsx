import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getSessionUser } from "@/lib/auth/session";
import { findInvitation } from "@/lib/workspaces/members";
import { SignupForm } from "./signup-form";

export const metadata: Metadata = { title: "Create an account" };

export default async function SignupPage({ searchParams }: { searchParams: Promise<{ invite?: string }> }) {
  if (await getSessionUser()) redirect("/");
  const { invite } = await searchParams;
  const invitation = invite ? await findInvitation(invite) : null;
  return (
    <SignupForm
      invite={invitation?.state === "pending" && invite ? { token: invite, email: invitation.email, workspaceName: invitation.workspaceName } : null}
    />
  );
}
