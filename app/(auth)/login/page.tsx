import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { safeRedirectPath } from "@/lib/auth/redirect";
import { getSessionUser } from "@/lib/auth/session";
import { signUpAvailability } from "@/lib/auth/sign-up";
import { publicUrl } from "@/lib/config/env";
import { LoginForm } from "./login-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  // Only a path on this site: `?next=/%5Cevil.example` and the like fall back to the dashboard.
  const next = safeRedirectPath((await searchParams).next, "/", publicUrl());
  if (await getSessionUser()) redirect(next);
  const { kind } = await signUpAvailability();
  return <LoginForm next={next} signUp={kind === "open" || kind === "first" ? "open" : kind === "closed" ? "closed" : "invitation"} />;
}
