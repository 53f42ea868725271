import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { startCheckSchema } from "@/lib/checks/schemas";
import { scheduleInputSchema } from "@/lib/schedules/schemas";
import { acceptSetupSchema } from "@/lib/setup/schemas";

// The providers a check asks are picked the same way wherever a check starts: the Check form, a
// schedule and the setup wizard's first check (pickedProvidersSchema).
describe("the providers a check asks", () => {
  const issuesOf = (schema: { safeParse: (input: unknown) => { error?: { issues: { path: PropertyKey[]; message: string }[] } } }, ids: string[]) =>
    (schema.safeParse({ providerConfigIds: ids }).error?.issues ?? []).filter((issue) => issue.path[0] === "providerConfigIds").map((issue) => issue.message);

  it.each([
    ["the Check form", startCheckSchema],
    ["a schedule", scheduleInputSchema],
    ["the setup wizard", acceptSetupSchema],
  ] as const)("%s takes 1 to 20 of them", (_name, schema) => {
    expect(issuesOf(schema, Array.from({ length: 20 }, () => randomUUID()))).toEqual([]);
    expect(issuesOf(schema, Array.from({ length: 21 }, () => randomUUID()))).toEqual(["Pick at most 20 providers"]);
    expect(issuesOf(schema, [])).toEqual(["Pick at least one provider"]);
  });
});
