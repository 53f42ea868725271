import type { Metadata } from "next";
import { canEditTrackingSetup } from "@/lib/permissions/permissions";
import { requirePageContext } from "@/lib/auth/session";
import { listBrands } from "@/lib/brands/brands";
import { PrefetchedQueries } from "@/components/prefetched-queries";
import { reanalysisKey } from "@/components/reanalysis/queries";
import { reanalysisByBrand } from "@/lib/jobs/analysis-runs";
import { prefetch } from "@/lib/pages/prefetch";
import { BrandsPage } from "./brands-page";

export const metadata: Metadata = { title: "Brands" };

export default async function Page() {
  const ctx = await requirePageContext();
  const [brands, reanalysis] = await Promise.all([listBrands(ctx.workspace.id), reanalysisByBrand(ctx.workspace.id)]);
  return (
    <PrefetchedQueries state={prefetch([], [{ queryKey: reanalysisKey, data: reanalysis }])}>
      <BrandsPage initialBrands={brands} canEdit={canEditTrackingSetup(ctx)} />
    </PrefetchedQueries>
  );
}
