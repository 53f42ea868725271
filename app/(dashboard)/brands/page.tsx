import type { Metadata } from "next";
import { canEditTrackingSetup } from "@/lib/permissions/permissions";
import { requirePageContext } from "@/lib/auth/session";
import { listBrands } from "@/lib/brands/brands";
import { PrefetchedQueries } from "@/components/prefetched-queries";
import { reanalysisQuery } from "@/components/reanalysis/queries";
import { prefetch } from "@/lib/pages/prefetch";
import { BrandsPage } from "./brands-page";

export const metadata: Metadata = { title: "Brands" };

export default async function Page() {
  const ctx = await requirePageContext();
  const brands = await listBrands(ctx.workspace.id);
  return (
    <PrefetchedQueries state={prefetch([reanalysisQuery])}>
      <BrandsPage initialBrands={brands} canEdit={canEditTrackingSetup(ctx)} />
    </PrefetchedQueries>
  );
}
