"use client";
import { Link } from "@/components/ui/link";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { signInAction } from "@/lib/actions/auth";
import { safeRedirectPath } from "@/lib/auth/redirect";
import { signInSchema } from "@/lib/workspaces/schemas";

/** What a visitor without an account can do here, by BEACON_SIGNUP (lib/auth/sign-up.ts). */
export type SignUpOffer = "open" | "invitation" | "closed";

export function LoginForm({ next, signUp }: { next: string; signUp: SignUpOffer }) {
  const router = useRouter();
  const form = useActionForm(signInSchema, signInAction, {
    onSuccess: () => {
      // Checked on the server already; checked again against this page's own origin.
      router.replace(safeRedirectPath(next, "/", window.location.origin));
      router.refresh();
    },
  });
  return (
    <Card className="p-6">
      <h1 className="mb-4 text-lg font-semibold">Sign in</h1>
      <form
        noValidate
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          form.submit({ email: String(data.get("email")), password: String(data.get("password")) });
        }}
      >
        <Field id="email" label="Email" error={form.error("email")}>
          <Input id="email" name="email" type="email" autoComplete="email" required autoFocus invalid={!!form.error("email")} />
        </Field>
        <Field id="password" label="Password" error={form.error("password")}>
          <Input id="password" name="password" type="password" autoComplete="current-password" required invalid={!!form.error("password")} />
        </Field>
        <Button type="submit" className="w-full" pending={form.pending}>
          Sign in
        </Button>
      </form>
      {signUp === "open" && (
        <p className="mt-4 text-center text-sm text-slate-600">
          New here?{" "}
          <Link href="/signup" className="font-medium text-brand-600 hover:underline">
            Create an account
          </Link>
        </p>
      )}
      {signUp === "invitation" && (
        <p className="mt-4 text-sm text-slate-600">
          New here? Accounts here are made from an invitation link: ask an admin of your team&apos;s workspace to invite
          you (Members page). Running Beacon yourself? Open sign-up with <code className="text-xs">BEACON_SIGNUP=open</code>.
        </p>
      )}
      {signUp === "closed" && <p className="mt-4 text-sm text-slate-600">This Beacon does not accept new accounts. Your administrator can add you to a workspace.</p>}
    </Card>
  );
}
