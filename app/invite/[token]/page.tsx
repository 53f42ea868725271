import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { Card } from "@/components/ui/card";
import { getSessionUser } from "@/lib/auth/session";
import { findInvitation } from "@/lib/workspaces/members";
import { AcceptInvitation } from "./accept-invitation";

// Reads the session on every request; never prerendered.
export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Invitation" };

const messages = {
  accepted: "This invitation has already been used.",
  revoked: "This invitation was withdrawn. Ask the person who invited you for a new link.",
  expired: "This invitation has expired. Ask the person who invited you for a new link.",
};

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const [invitation, user] = await Promise.all([findInvitation(token), getSessionUser()]);
  return (
    <main className="flex min-h-full items-center justify-center px-4 py-12">
      <Card className="w-full max-w-md p-6">
        {!invitation ? (
          <p className="text-sm text-slate-700">This invitation link is not valid.</p>
        ) : invitation.state !== "pending" ? (
          <p className="text-sm text-slate-700">{messages[invitation.state]}</p>
        ) : (
          <>
            <h1 className="text-lg font-semibold">Join {invitation.workspaceName}</h1>
            <p className="mt-1 text-sm text-slate-600">
              You are invited as <strong>{invitation.role}</strong> ({invitation.email}).
            </p>
            <div className="mt-6">
              {user ? (
                <AcceptInvitation token={token} />
              ) : (
                <div className="flex gap-3">
                  <Link className="rounded-md bg-brand-600 px-3.5 py-2 text-sm font-medium text-white" href={`/signup?invite=${encodeURIComponent(token)}`}>
                    Create an account
                  </Link>
                  <Link className="rounded-md px-3.5 py-2 text-sm font-medium ring-1 ring-slate-300" href={`/login?next=${encodeURIComponent(`/invite/${token}`)}`}>
                    Sign in
                  </Link>
                </div>
              )}
            </div>
          </>
        )}
      </Card>
    </main>
  );
}
