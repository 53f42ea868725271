import type { Metadata } from "next";
import { canEditTrackingSetup } from "@/lib/permissions/permissions";
import { requirePageContext } from "@/lib/auth/session";
import { listBrands } from "@/lib/brands/brands";
import { BrandsPage } from "./brands-page";

export const metadata: Metadata = { title: "Brands" };

export default async function Page() {
  const ctx = await requirePageContext();
  const brands = await listBrands(ctx.workspace.id);
  return <BrandsPage initialBrands={brands} canEdit={canEditTrackingSetup(ctx)} />;
}
