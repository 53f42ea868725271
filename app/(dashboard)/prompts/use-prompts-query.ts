"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { listPromptsAction } from "@/lib/actions/prompts";
import { unwrap } from "@/lib/browser/action-result";

export type PromptFilters = { q?: string; tag?: string; page: number; pageSize: number };

export const promptsKey = ["prompts"] as const;

export function usePromptsQuery(filters: PromptFilters) {
  return useQuery({
    queryKey: [...promptsKey, filters],
    queryFn: async () => unwrap(await listPromptsAction(filters)),
    placeholderData: keepPreviousData,
  });
}

export type PromptRow = NonNullable<ReturnType<typeof usePromptsQuery>["data"]>["items"][number];
