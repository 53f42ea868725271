import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { z } from "zod";
import { canRetryCapture } from "@/lib/permissions/permissions";
import { requirePageContext } from "@/lib/auth/session";
import { CheckPage } from "./check-page";

export const metadata: Metadata = { title: "Check" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const ctx = await requirePageContext();
  const { id } = await params;
  if (!z.uuid().safeParse(id).success) notFound();
  return <CheckPage checkId={id} me={{ userId: ctx.userId, role: ctx.role }} canRetry={canRetryCapture(ctx)} />;
}
