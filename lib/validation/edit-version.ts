import { z } from "zod";
import { ConflictError } from "@/lib/errors";

// A form loads a whole row and saves every field it shows: one opened before another edit (another
// member's, another tab's, discovery's "track it", an operator's disable) would silently undo it.
// So an edit form sends back the version of the row it read, and the save is refused when the row
// has changed since. The version is the row's updatedAt, or a counter where background writers
// touch the row too (a brand's analysisVersion). Callers that send none (the REST API) still
// overwrite: last write wins.

/** The row's updatedAt as the form read it (a Date, or its ISO text from a client). */
export const editedAt = z.coerce.date<Date | string>().optional();

/** The row's edit counter as the form read it (a brand's analysisVersion, a schedule's or a rule's editVersion). */
export const editCounter = z.number().int().nonnegative().optional();

/**
 * Refuses the save (409, nothing stored) when `read`, the version the form read, is not the row's
 * `current` one. Call it with the row locked, before any write. `what` names the row for the person.
 */
export function refuseStaleEdit(what: string, current: Date | number, read: Date | number | undefined): void {
  if (read === undefined || +current === +read) return;
  throw new ConflictError(`${what} was changed since this form was opened (by someone else, or in another tab). Nothing was saved: close the form and open it again to edit it as it is now.`);
}
