"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "@/lib/browser/toast";
import { Button } from "@/components/ui/button";
import { Badge, Card, EmptyState, PageHeader } from "@/components/ui/card";
import { deleteBrandAction, retryReanalysisAction } from "@/lib/actions/brands";
import { unwrap } from "@/lib/browser/action-result";
import { BrandFormDialog } from "./brand-form-dialog";
import { reanalysisKey } from "@/components/reanalysis/queries";
import { ReanalysisBar, runProgress } from "@/components/reanalysis/reanalysis-bar";
import { useReanalysisQuery } from "@/components/reanalysis/use-reanalysis";
import type { ReanalysisRun } from "@/lib/jobs/reanalysis-progress";
import { brandsKey, useBrandsQuery, type BrandRow } from "./use-brands-query";
import { useConfirm } from "@/components/ui/confirm-dialog";
import { displayHost } from "@/lib/analysis/host";

function Names({ label, values }: { label: string; values: string[] }) {
  if (!values.length) return null;
  return (
    <p className="text-xs text-slate-500">
      {label}: <span className="text-slate-700">{values.join(", ")}</span>
    </p>
  );
}

function ReanalysisStatus({ brandId, run, canEdit }: { brandId: string; run?: ReanalysisRun; canEdit: boolean }) {
  const queryClient = useQueryClient();
  const retry = useMutation({
    mutationFn: async () => unwrap(await retryReanalysisAction({ brandId })),
    onSuccess: async () => {
      toast.success("Re-analysis queued");
      await queryClient.invalidateQueries({ queryKey: reanalysisKey });
    },
    onError: (error) => toast.error(error.message),
  });
  if (!run || run.status === "completed") return null;
  if (run.status === "failed")
    return (
      <div className="mt-1 space-y-1" role="alert">
        <p className="text-xs text-red-600">
          Re-analysis of past answers failed: {run.error}. Alerts on this brand wait until it is done{canEdit ? "." : "; an admin or member can try it again."}
        </p>
        {canEdit && (
          <Button variant="secondary" size="sm" pending={retry.isPending} onClick={() => retry.mutate()}>
            Try again
          </Button>
        )}
      </div>
    );
  return (
    <div className="mt-2 w-full max-w-64" role="status">
      <p className="text-xs text-slate-600">
        {run.status === "running"
          ? `Re-analysing past answers: ${runProgress(run)}`
          : run.error
            ? `Re-analysis of past answers hit an error and will try again shortly: ${run.error}`
            : "Re-analysis of past answers is waiting…"}
      </p>
      <ReanalysisBar run={run} className="mt-1 bg-slate-200" fill="bg-brand-500" />
    </div>
  );
}

export function BrandsPage({ initialBrands, canEdit }: { initialBrands: BrandRow[]; canEdit: boolean }) {
  const queryClient = useQueryClient();
  const [ask, confirmDialog] = useConfirm();
  const { data: brands = [] } = useBrandsQuery(initialBrands);
  const reanalysis = useReanalysisQuery().data ?? {};
  const [editing, setEditing] = useState<BrandRow | "new" | null>(null);
  const remove = useMutation({
    mutationFn: async (brandId: string) => unwrap(await deleteBrandAction({ brandId })),
    onSuccess: async () => {
      toast.success("Brand deleted");
      await queryClient.invalidateQueries({ queryKey: brandsKey });
    },
    onError: (error) => toast.error(error.message),
  });

  return (
    <>
      {confirmDialog}
      <PageHeader
        title="Brands"
        description="What Beacon looks for in AI answers: your brand, the names it goes by, your domains, and your competitors."
        actions={canEdit && <Button onClick={() => setEditing("new")}>Add brand</Button>}
      />
      {brands.length === 0 ? (
        <EmptyState
          title="No brands yet"
          description="Add your brand with its aliases and domains, and the competitors you want to compare against."
          action={canEdit && <Button onClick={() => setEditing("new")}>Add your brand</Button>}
        />
      ) : (
        <div className="space-y-4">
          {brands.map((brand) => (
            <Card key={brand.id} className="p-5">
              <div className="flex items-start justify-between gap-4">
                <div className="min-w-0 space-y-1">
                  <h2 className="text-base font-semibold text-slate-900">{brand.name}</h2>
                  <Names label="Aliases" values={brand.aliases} />
                  <Names label="Case-sensitive aliases" values={brand.caseSensitiveAliases} />
                  <Names label="Domains" values={brand.domains.map(displayHost)} />
                  <ReanalysisStatus brandId={brand.id} run={reanalysis[brand.id]} canEdit={canEdit} />
                </div>
                {canEdit && (
                  <div className="flex gap-1">
                    <Button variant="secondary" size="sm" onClick={() => setEditing(brand)}>
                      Edit
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      pending={remove.isPending && remove.variables === brand.id}
                      onClick={() => ask({ title: "Delete brand?", body: `Delete ${brand.name} and its competitors?`, confirmLabel: "Delete", destructive: true }, () => remove.mutate(brand.id))}
                    >
                      Delete
                    </Button>
                  </div>
                )}
              </div>
              <h3 className="mb-2 mt-4 text-xs font-medium uppercase tracking-wide text-slate-500">Competitors ({brand.competitors.length})</h3>
              {brand.competitors.length ? (
                <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
                  {brand.competitors.map((c) => (
                    <li key={c.id} className="rounded-md bg-slate-50 p-3 ring-1 ring-slate-200">
                      <p className="text-sm font-medium text-slate-900">{c.name}</p>
                      <Names label="Aliases" values={c.aliases} />
                      <div className="mt-1 flex flex-wrap gap-1">
                        {c.domains.map((d) => (
                          <Badge key={d}>{displayHost(d)}</Badge>
                        ))}
                      </div>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-sm text-slate-500">No competitors tracked.</p>
              )}
            </Card>
          ))}
        </div>
      )}
      {editing && <BrandFormDialog brand={editing === "new" ? undefined : editing} onClose={() => setEditing(null)} />}
    </>
  );
}
