"use client";
import { useQueryClient } from "@tanstack/react-query";
import { Link } from "@/components/ui/link";
import { useState } from "react";
import { toast } from "@/lib/browser/toast";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input, Select } from "@/components/ui/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { createShareLinkAction } from "@/lib/actions/share-links";
import { createShareLinkInput, SHARE_EXPIRY_PRESETS, type CreateShareLinkInput } from "@/lib/share-links/schemas";
import { shareLinksKey } from "@/app/(dashboard)/settings/use-share-links-query";
import type { useAnalyticsFilters } from "../use-analytics-filters";

type Filters = ReturnType<typeof useAnalyticsFilters>;

/** The current filter as a link's period: a preset stays rolling, custom dates stay fixed. */
function linkInput(filters: Filters, label: string, expiresInDays: number): CreateShareLinkInput {
  const { input, preset } = filters;
  return {
    brandId: input.brandId ?? "",
    label,
    providers: input.providers,
    tags: input.tags,
    markets: input.markets,
    period: preset !== null ? { kind: "rolling", days: preset } : { kind: "fixed", from: input.from ?? "", to: input.to ?? "" },
    expiresInDays,
  };
}

/**
 * The Share button's dialog: a read-only link to this brand's Overview with the filters on screen.
 * share-button.tsx loads it on first open (its zod schema stays out of the Overview's JavaScript).
 */
export function ShareDialog({ filters, onClose }: { filters: Filters; onClose: () => void }) {
  const [url, setUrl] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const form = useActionForm(createShareLinkInput, createShareLinkAction, {
    onSuccess: async (link) => {
      setUrl(`${window.location.origin}${link.path}`);
      await queryClient.invalidateQueries({ queryKey: shareLinksKey });
    },
  });
  const period = filters.preset !== null ? `the last ${filters.preset} days, up to the day it is opened` : `${filters.input.from} to ${filters.input.to}`;
  return (
    <Dialog open onClose={onClose} title="Share a read-only report">
      {url ? (
        <div className="space-y-3">
          <Field id="share-url" label="Link" hint="Anyone with this link sees this report until it expires or you revoke it. It is shown only now.">
            <Input id="share-url" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
          </Field>
          <div className="flex justify-end gap-2">
            <Button
              type="button"
              variant="secondary"
              onClick={async () => {
                await navigator.clipboard.writeText(url).then(
                  () => toast.success("Link copied"),
                  () => toast.error("Could not copy; select the link and copy it yourself."),
                );
              }}
            >
              Copy link
            </Button>
            <Button type="button" onClick={onClose}>Done</Button>
          </div>
        </div>
      ) : (
        <form
          noValidate
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            const elements = event.currentTarget.elements;
            const label = (elements.namedItem("label") as HTMLInputElement).value;
            const days = Number((elements.namedItem("expiresInDays") as HTMLSelectElement).value);
            form.submit(linkInput(filters, label, days));
          }}
        >
          <p className="text-sm text-slate-600">
            The link shows {filters.brand?.name ?? "this brand"}&apos;s Overview for {period}, with the providers, tags and markets chosen here. No account is needed to open it.
          </p>
          <Field id="share-label" label="Label (for your list)" hint="e.g. “Monthly report for the client”" error={form.error("label")}>
            <Input id="share-label" name="label" maxLength={100} autoComplete="off" invalid={!!form.error("label")} />
          </Field>
          <Field id="share-expiry" label="Works for" error={form.error("expiresInDays") ?? form.error("period") ?? form.error("brandId")}>
            <Select id="share-expiry" name="expiresInDays" defaultValue="30">
              {SHARE_EXPIRY_PRESETS.map((d) => (
                <option key={d} value={d}>{d} days</option>
              ))}
            </Select>
          </Field>
          <div className="flex items-center justify-between gap-2">
            <Link href="/settings?tab=share-links" className="text-sm font-medium text-brand-700 hover:underline">All share links</Link>
            <Button type="submit" pending={form.pending}>Create link</Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
