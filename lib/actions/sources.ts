"use server";
import { assertCan, canCategorizeSources } from "@/lib/permissions/permissions";
import { fieldPaths, workspaceAction } from "@/lib/actions/safe-action";
import { listSourceCategoryOverrides, setSourceCategory } from "@/lib/sources/overrides";
import { sourceCategoryInput } from "@/lib/sources/schemas";

/** The workspace's own categories for cited domains, with the shipped ones they replace. */
export const listSourceCategoriesAction = workspaceAction.action(async ({ ctx }) => listSourceCategoryOverrides(ctx.workspace.id));

/** Sets a domain's category for the workspace (null: back to the shipped mapping). Admins and owners. */
export const setSourceCategoryAction = workspaceAction.inputSchema(sourceCategoryInput, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canCategorizeSources(ctx), "Only admins can change a source's category.");
  await setSourceCategory(ctx.workspace.id, ctx.user.id, parsedInput.domain, parsedInput.category);
  return listSourceCategoryOverrides(ctx.workspace.id);
});
