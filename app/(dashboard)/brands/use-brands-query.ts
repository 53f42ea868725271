"use client";
import { useQuery } from "@tanstack/react-query";
import { listBrandsAction } from "@/lib/actions/brands";
import { unwrap } from "@/lib/browser/action-result";

export const brandsKey = ["brands"] as const;

export type BrandRow = NonNullable<Awaited<ReturnType<typeof fetchBrands>>>[number];

async function fetchBrands() {
  return unwrap(await listBrandsAction());
}

export function useBrandsQuery(initialData?: BrandRow[]) {
  return useQuery({ queryKey: brandsKey, queryFn: fetchBrands, initialData });
}
