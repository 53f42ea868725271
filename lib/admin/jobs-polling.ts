// Whether the Jobs page polls its list again after an answer. Pure: the page and its tests use it.
import { isUnfinished } from "@/lib/captures/states";

/** While the workspace has work to end (a filtered view gains rows as it ends), or a shown row is unfinished. */
export const listPollsAgain = (answer: { busy: boolean; items: { status: string }[] }) => answer.busy || answer.items.some((c) => isUnfinished(c.status));
