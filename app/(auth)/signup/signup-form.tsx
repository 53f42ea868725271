"use client";
import { Link } from "@/components/ui/link";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { signInAction, signUpAction } from "@/lib/actions/auth";
import { NAME_MAX, PASSWORD_MAX, PASSWORD_MIN, PASSWORD_RULE } from "@/lib/validation/account-fields";
import { ActionFailure, unwrap } from "@/lib/browser/action-result";
import { signUpSchema } from "@/lib/workspaces/schemas";

type Invite = { token: string; email: string; workspaceName: string };
type Credentials = { email: string; password: string; inviteToken?: string };

// Sign-up answers the same whether or not the address already had an account (no account
// enumeration); the form then signs in like the login form, through the same limiter.
const NOT_SIGNED_IN = "We could not sign you in with this email and password. If this address already had an account, sign in with its password instead.";

export function SignupForm({ invite, first }: { invite: Invite | null; first: boolean }) {
  const router = useRouter();
  const credentials = useRef<Credentials | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useActionForm(signUpSchema, signUpAction, {
    onSuccess: async () => {
      try {
        unwrap(await signInAction(credentials.current!));
        router.replace("/");
        router.refresh();
      } catch (error) {
        setProblem(error instanceof ActionFailure && error.code === "rate_limited" ? error.message : NOT_SIGNED_IN);
      }
    },
  });
  return (
    <Card className="p-6">
      <h1 className="mb-1 text-lg font-semibold">Create your account</h1>
      <p className="mb-4 text-sm text-slate-600">
        {invite ? (
          <>
            You are joining <strong>{invite.workspaceName}</strong>.
          </>
        ) : first ? (
          "You are the first person here: this account sets up this Beacon and manages it (its operator)."
        ) : (
          "You get your own workspace; invite your team later."
        )}
      </p>
      <form
        noValidate
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          setProblem(null);
          const data = new FormData(event.currentTarget);
          const email = String(data.get("email"));
          const password = String(data.get("password"));
          credentials.current = { email, password, inviteToken: invite?.token };
          form.submit({
            name: String(data.get("name")),
            email,
            password,
            workspaceName: invite ? undefined : String(data.get("workspaceName") ?? ""),
            inviteToken: invite?.token,
          });
        }}
      >
        <Field id="name" label="Your name" error={form.error("name")}>
          <Input id="name" name="name" autoComplete="name" required autoFocus maxLength={NAME_MAX} invalid={!!form.error("name")} />
        </Field>
        <Field id="email" label="Work email" error={form.error("email")}>
          <Input id="email" name="email" type="email" autoComplete="email" required defaultValue={invite?.email} readOnly={!!invite} invalid={!!form.error("email")} />
        </Field>
        <Field id="password" label="Password" hint={PASSWORD_RULE} error={form.error("password")}>
          <Input id="password" name="password" type="password" autoComplete="new-password" required minLength={PASSWORD_MIN} maxLength={PASSWORD_MAX} invalid={!!form.error("password")} />
        </Field>
        {!invite && (
          <Field id="workspaceName" label="Workspace name" hint="Usually your company or team. You can change it later." error={form.error("workspaceName")}>
            <Input id="workspaceName" name="workspaceName" placeholder="Acme marketing" invalid={!!form.error("workspaceName")} />
          </Field>
        )}
        {problem && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
            {problem}{" "}
            <Link href="/login" className="font-medium underline">
              Sign in
            </Link>
          </p>
        )}
        <Button type="submit" className="w-full" pending={form.pending}>
          Create account
        </Button>
      </form>
      <p className="mt-4 text-center text-sm text-slate-600">
        Already have an account?{" "}
        <Link href="/login" className="font-medium text-brand-600 hover:underline">
          Sign in
        </Link>
      </p>
    </Card>
  );
}
