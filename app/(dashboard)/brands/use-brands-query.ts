"use client";
import { useQuery } from "@tanstack/react-query";
import { listBrandsAction, reanalysisProgressAction } from "@/lib/actions/brands";
import { unwrap } from "@/lib/browser/action-result";

export const brandsKey = ["brands"] as const;

export type BrandRow = NonNullable<Awaited<ReturnType<typeof fetchBrands>>>[number];

async function fetchBrands() {
  return unwrap(await listBrandsAction());
}

export function useBrandsQuery(initialData?: BrandRow[]) {
  return useQuery({ queryKey: brandsKey, queryFn: fetchBrands, initialData });
}

export const reanalysisKey = ["brands", "reanalysis"] as const;

/** Polls while a re-analysis is waiting or running. */
export function useReanalysisQuery() {
  return useQuery({
    queryKey: reanalysisKey,
    queryFn: async () => unwrap(await reanalysisProgressAction()),
    refetchInterval: (query) => (Object.values(query.state.data ?? {}).some((r) => r.status === "queued" || r.status === "running") ? 1000 : false),
  });
}
