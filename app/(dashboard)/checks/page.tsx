import type { Metadata } from "next";
import { canStartCheck } from "@/lib/permissions/permissions";
import { requirePageContext } from "@/lib/auth/session";
import { listBrands } from "@/lib/brands/brands";
import { ChecksPage } from "./checks-page";

export const metadata: Metadata = { title: "Checks" };

export default async function Page() {
  const ctx = await requirePageContext();
  const brands = await listBrands(ctx.workspace.id);
  return <ChecksPage canStart={canStartCheck(ctx)} brands={brands.map((b) => ({ id: b.id, name: b.name }))} />;
}
