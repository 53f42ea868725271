"use client";
import { useQuery } from "@tanstack/react-query";
import { getBrandingAction, listShareLinksAction } from "@/lib/actions/share-links";
import { unwrap } from "@/lib/browser/action-result";

export const shareLinksKey = ["share-links"] as const;
export const brandingKey = ["branding"] as const;

/** The workspace's share links with status and views (admins). */
export const useShareLinksQuery = () => useQuery({ queryKey: shareLinksKey, queryFn: async () => unwrap(await listShareLinksAction()) });

/** The agency name and logo shared reports carry. */
export const useBrandingQuery = () => useQuery({ queryKey: brandingKey, queryFn: async () => unwrap(await getBrandingAction()) });

export type ShareLinkRow = NonNullable<ReturnType<typeof useShareLinksQuery>["data"]>[number];
