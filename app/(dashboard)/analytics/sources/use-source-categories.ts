"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "@/lib/browser/toast";
import { setSourceCategoryAction } from "@/lib/actions/sources";
import { unwrap } from "@/lib/browser/action-result";
import { CATEGORY_LABELS, type OverridableCategory } from "@/lib/sources/category-labels";

import { sourceCategoriesQuery } from "./queries";

export const sourceCategoriesKey = sourceCategoriesQuery.queryKey;

/** The workspace's own categories for cited domains. */
export function useSourceCategoryOverridesQuery() {
  return useQuery(sourceCategoriesQuery);
}

/** Sets (null: resets) a domain's category; every chart that shows categories reloads. */
export function useSetSourceCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { domain: string; category: OverridableCategory | null }) => unwrap(await setSourceCategoryAction(input)),
    onSuccess: async (rows, input) => {
      toast.success(input.category ? `${input.domain}: ${CATEGORY_LABELS[input.category]} in this workspace` : `${input.domain} is back to its shipped category`);
      queryClient.setQueryData(sourceCategoriesKey, rows);
      await queryClient.invalidateQueries({ queryKey: ["analytics"] });
    },
    onError: (error) => toast.error(error.message),
  });
}
