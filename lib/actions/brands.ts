"use server";
import { z } from "zod";
import { assertCan, canEditTrackingSetup } from "@/lib/permissions/permissions";
import { fieldPaths, workspaceAction } from "@/lib/actions/safe-action";
import { editCounter } from "@/lib/validation/edit-version";
import { retryReanalysis } from "@/lib/brands/reanalysis";
import { reanalysisByBrand } from "@/lib/jobs/analysis-runs";
import { createBrand, deleteBrand, listBrands, trackCompetitor, updateBrand } from "@/lib/brands/brands";
import { brandInputSchema, competitorInputSchema } from "@/lib/brands/schemas";

export const listBrandsAction = workspaceAction.action(async ({ ctx }) => listBrands(ctx.workspace.id));

/** Progress of each brand's deciding re-analysis (its open run, else its latest; after its names or competitors changed). */
export const reanalysisProgressAction = workspaceAction.action(async ({ ctx }) => reanalysisByBrand(ctx.workspace.id));

/** A re-analysis whose every attempt failed, asked for again (the brand's alert rules wait for it). */
export const retryReanalysisAction = workspaceAction
  .inputSchema(z.object({ brandId: z.uuid() }), fieldPaths)
  .action(async ({ parsedInput, ctx }) => {
    assertCan(canEditTrackingSetup(ctx), "Viewers cannot re-analyse a brand's answers.");
    return retryReanalysis(ctx.workspace.id, parsedInput.brandId);
  });

export const createBrandAction = workspaceAction.inputSchema(brandInputSchema, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canEditTrackingSetup(ctx), "Viewers cannot add brands.");
  return createBrand(ctx.workspace.id, parsedInput);
});

export const updateBrandAction = workspaceAction
  // `version`: the brand's analysisVersion as the form read it (an edit saved since refuses this one).
  .inputSchema(z.object({ brandId: z.uuid(), brand: brandInputSchema, version: editCounter }), fieldPaths)
  .action(async ({ parsedInput, ctx }) => {
    assertCan(canEditTrackingSetup(ctx), "Viewers cannot change brands.");
    return updateBrand(ctx.workspace.id, parsedInput.brandId, parsedInput.brand, { version: parsedInput.version });
  });

export const deleteBrandAction = workspaceAction
  .inputSchema(z.object({ brandId: z.uuid() }), fieldPaths)
  .action(async ({ parsedInput, ctx }) => {
    assertCan(canEditTrackingSetup(ctx), "Viewers cannot delete brands.");
    await deleteBrand(ctx.workspace.id, parsedInput.brandId);
  });

/** Competitor discovery's "track it": one name, added as a competitor of the brand. */
export const trackCompetitorAction = workspaceAction
  .inputSchema(z.object({ brandId: z.uuid(), name: competitorInputSchema.shape.name }), fieldPaths)
  .action(async ({ parsedInput, ctx }) => {
    assertCan(canEditTrackingSetup(ctx), "Viewers cannot change brands.");
    return trackCompetitor(ctx.workspace.id, parsedInput.brandId, parsedInput.name);
  });
