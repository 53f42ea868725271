import type { Metadata } from "next";
import { PrefetchedQueries } from "@/components/prefetched-queries";
import { canStartCheck } from "@/lib/permissions/permissions";
import { requirePageContext } from "@/lib/auth/session";
import { listBrands } from "@/lib/brands/brands";
import { prefetch } from "@/lib/pages/prefetch";
import { ChecksPage } from "./checks-page";
import { checksQuery, FIRST_CHECKS } from "./queries";

export const metadata: Metadata = { title: "Checks" };

export default async function Page() {
  const ctx = await requirePageContext();
  const first = prefetch([checksQuery(FIRST_CHECKS)]);
  const brands = await listBrands(ctx.workspace.id);
  return (
    <PrefetchedQueries state={first}>
      <ChecksPage canStart={canStartCheck(ctx)} brands={brands.map((b) => ({ id: b.id, name: b.name }))} />
    </PrefetchedQueries>
  );
}
