// The lists of kinds the code writes by hand (TypeScript unions and constants, zod enums) against
// the database's enums (prisma/schema.prisma, generated into lib/generated/prisma/enums.ts): a
// value added on one side only is a status no page shows, a form that cannot save, or a row the
// database refuses. Runtime lists are compared here; unions are compared by the typecheck
// (expectTypeOf, checked by `npm run typecheck`).
import { describe, expect, expectTypeOf, it } from "vitest";
import * as db from "@/lib/generated/prisma/enums";
import { CHANNEL_KINDS, DELIVERY_STATUSES, ENDED_DELIVERY_STATUSES } from "@/lib/alerts/channel-schemas";
import { CAPTURE_STATUSES, CHECK_STATUSES, type CaptureWait } from "@/lib/captures/states";
import { PENDING_OPERATION_STATUSES } from "@/lib/captures/states";
import type { CheckOperationView } from "@/lib/checks/progress-state";
import { API_KEY_SCOPES } from "@/lib/permissions/api-key-scopes";
import { ROLES, type Role } from "@/lib/permissions/roles";
import type { RetryClass } from "@/lib/providers/errors";
import { providerConfigInputSchema } from "@/lib/providers/schemas";
import type { SearchMode } from "@/lib/providers/types";
import { RETAINED_DELIVERY_STATUSES } from "@/lib/jobs/retention";
import { scheduleInputSchema } from "@/lib/schedules/schemas";
import { OVERRIDABLE_CATEGORIES } from "@/lib/sources/category-labels";

const values = (e: Record<string, string>) => Object.values(e).sort();
const sorted = (list: readonly string[]) => [...list].sort();

describe("every list of kinds equals the database's enum", () => {
  it.each([
    ["capture statuses", CAPTURE_STATUSES, db.CaptureStatus],
    ["check statuses", CHECK_STATUSES, db.CheckStatus],
    ["alert delivery statuses", DELIVERY_STATUSES, db.AlertDeliveryStatus],
    ["alert channel kinds", CHANNEL_KINDS, db.AlertChannelKind],
    ["API key scopes", API_KEY_SCOPES, db.ApiKeyScope],
    ["member roles", ROLES, db.Role],
    ["source categories a workspace may set", OVERRIDABLE_CATEGORIES, db.SourceCategory],
    ["the provider form's search modes", providerConfigInputSchema.shape.searchMode.options, db.SearchMode],
  ] as const)("%s", (_name, list, dbEnum) => {
    expect(sorted(list)).toEqual(values(dbEnum));
  });

  it("the schedule form's cadences", () => {
    const cadenceRefused = (cadence: string) => scheduleInputSchema.safeParse({ cadence }).error?.issues.some((i) => i.path[0] === "cadence");
    expect(cadenceRefused("monthly")).toBe(true);
    for (const cadence of values(db.ScheduleCadence)) {
      expect(cadenceRefused(cadence), cadence).toBe(false);
    }
  });

  it("retention deletes the alert deliveries that ended (lib/jobs keeps its own copy: it may not import lib/alerts)", () => {
    expect(sorted(RETAINED_DELIVERY_STATUSES)).toEqual(sorted(ENDED_DELIVERY_STATUSES));
  });

  it("pending check operations are operation statuses", () => {
    for (const status of PENDING_OPERATION_STATUSES) expect(values(db.CheckOperationStatus)).toContain(status);
  });

  it("the unions the code types with", () => {
    expectTypeOf<CaptureWait>().toEqualTypeOf<db.CaptureWait>();
    expectTypeOf<Role>().toEqualTypeOf<db.Role>();
    expectTypeOf<SearchMode>().toEqualTypeOf<db.SearchMode>();
    expectTypeOf<CheckOperationView["status"]>().toEqualTypeOf<db.CheckOperationStatus>();
    expectTypeOf<CheckOperationView["kind"]>().toEqualTypeOf<db.CheckOperationKind>();
    // The schema also keeps "breaker_open", which no code writes (a capture the breaker holds
    // back is postponed, not failed); dropping an enum value means recreating the type.
    expectTypeOf<RetryClass>().toEqualTypeOf<Exclude<db.ErrorClass, "breaker_open">>();
  });
});
