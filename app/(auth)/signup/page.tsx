import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { redirect } from "next/navigation";
import { Card } from "@/components/ui/card";
import { getSessionUser } from "@/lib/auth/session";
import { CLOSED_MESSAGE, INVITE_ONLY_MESSAGE, signUpAvailability } from "@/lib/auth/sign-up";
import { SignupForm } from "./signup-form";

export const metadata: Metadata = { title: "Create an account" };

const refusals = {
  "invite-only": { title: "Sign-up is by invitation", text: INVITE_ONLY_MESSAGE },
  closed: { title: "Sign-up is closed", text: CLOSED_MESSAGE },
  "stale-invitation": { title: "This invitation cannot be used", text: "It was used, withdrawn or has expired. Ask the person who invited you for a new link." },
};

export default async function SignupPage({ searchParams }: { searchParams: Promise<{ invite?: string }> }) {
  if (await getSessionUser()) redirect("/");
  const { invite } = await searchParams;
  const token = typeof invite === "string" ? invite : undefined;
  const availability = await signUpAvailability(token);
  if (availability.kind in refusals) {
    const refusal = refusals[availability.kind as keyof typeof refusals];
    return (
      <Card className="p-6">
        <h1 className="mb-2 text-lg font-semibold">{refusal.title}</h1>
        <p className="text-sm text-slate-600">{refusal.text}</p>
        <p className="mt-4 text-sm text-slate-600">
          Already have an account?{" "}
          <Link href="/login" className="font-medium text-brand-600 hover:underline">
            Sign in
          </Link>
        </p>
      </Card>
    );
  }
  return (
    <SignupForm
      first={availability.kind === "first"}
      invite={availability.kind === "invited" && token ? { token, email: availability.email, workspaceName: availability.workspaceName } : null}
    />
  );
}
