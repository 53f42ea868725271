"use client";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/field";
import { ActionFailure } from "@/lib/browser/action-result";
import { CATEGORY_LABELS, OVERRIDABLE_CATEGORIES, type OverridableCategory } from "@/lib/sources/category-labels";
import { useSetSourceCategory, useSourceCategoryOverridesQuery } from "./use-source-categories";
import { displayHost } from "@/lib/analysis/host";

/** Admins: the workspace's own categories for cited domains, a form to set one, and a reset per row. */
export function CategoryOverrides() {
  const query = useSourceCategoryOverridesQuery();
  const set = useSetSourceCategory();
  const [domain, setDomain] = useState("");
  const [category, setCategory] = useState<OverridableCategory>("review");
  const domainError = set.error instanceof ActionFailure ? set.error.fieldErrors.domain?.[0] : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    set.mutate({ domain, category }, { onSuccess: () => setDomain("") });
  };
  return (
    <Card className="space-y-4 p-5">
      <div>
        <h2 className="text-base font-semibold text-slate-900">Source categories in this workspace</h2>
        <p className="text-sm text-slate-500">
          Categories come from a list shipped with Beacon; give a domain another one here. Your own and your competitors&apos; domains always count as own and competitor.
        </p>
      </div>
      <form onSubmit={submit} className="grid items-end gap-3 sm:grid-cols-[1fr_16rem_auto]">
        <Field id="source-domain" label="Domain" error={domainError} hint='A registrable domain, such as "g2.com".'>
          <Input id="source-domain" value={domain} onChange={(e) => setDomain(e.target.value)} invalid={!!domainError} placeholder="example.com" required />
        </Field>
        <Field id="source-category" label="Category">
          <Select id="source-category" value={category} onChange={(e) => setCategory(e.target.value as OverridableCategory)}>
            {OVERRIDABLE_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {CATEGORY_LABELS[c]}
              </option>
            ))}
          </Select>
        </Field>
        <Button type="submit" pending={set.isPending}>
          Set category
        </Button>
      </form>
      {query.isError && <p className="text-sm text-red-600">{query.error.message}</p>}
      {!!query.data?.length && (
        <ul className="divide-y divide-slate-100 text-sm">
          {query.data.map((o) => (
            <li key={o.domain} className="flex items-center justify-between gap-3 py-2">
              <span>
                <span className="font-medium text-slate-900">{displayHost(o.domain)}</span>: {CATEGORY_LABELS[o.category]}
                <span className="text-slate-500"> (shipped: {CATEGORY_LABELS[o.shipped]})</span>
              </span>
              <Button variant="ghost" size="sm" disabled={set.isPending} onClick={() => set.mutate({ domain: o.domain, category: null })}>
                Reset
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
