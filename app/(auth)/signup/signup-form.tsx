"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { signUpAction } from "@/lib/actions/auth";
import { signUpSchema } from "@/lib/workspaces/schemas";

type Invite = { token: string; email: string; workspaceName: string };

export function SignupForm({ invite }: { invite: Invite | null }) {
  const router = useRouter();
  const form = useActionForm(signUpSchema, signUpAction, {
    onSuccess: () => {
      router.replace("/");
      router.refresh();
    },
  });
  return (
    <Card className="p-6">
      <h1 className="mb-1 text-lg font-semibold">Create your account</h1>
      <p className="mb-4 text-sm text-slate-600">
        {invite ? <>You are joining <strong>{invite.workspaceName}</strong>.</> : "You get your own workspace; invite your team later."}
      </p>
      <form
        noValidate
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          form.submit({
            name: String(data.get("name")),
            email: String(data.get("email")),
            password: String(data.get("password")),
            workspaceName: invite ? undefined : String(data.get("workspaceName") ?? ""),
            inviteToken: invite?.token,
          });
        }}
      >
        <Field id="name" label="Your name" error={form.error("name")}>
          <Input id="name" name="name" autoComplete="name" required autoFocus invalid={!!form.error("name")} />
        </Field>
        <Field id="email" label="Work email" error={form.error("email")}>
          <Input id="email" name="email" type="email" autoComplete="email" required defaultValue={invite?.email} readOnly={!!invite} invalid={!!form.error("email")} />
        </Field>
        <Field id="password" label="Password" hint="At least 8 characters." error={form.error("password")}>
          <Input id="password" name="password" type="password" autoComplete="new-password" required invalid={!!form.error("password")} />
        </Field>
        {!invite && (
          <Field id="workspaceName" label="Workspace name" hint="Usually your company or team. You can change it later." error={form.error("workspaceName")}>
            <Input id="workspaceName" name="workspaceName" placeholder="Acme marketing" invalid={!!form.error("workspaceName")} />
          </Field>
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
