// The demo seed runs on every `npm run dev`: it must be idempotent, and its login must work
// through the real sign-in.
import { describe, expect, it, vi } from "vitest";
import { newBrowser } from "../support/request-context";
import { countRows, ok } from "../support/workspace-fixtures";
import { signInAction } from "@/lib/actions/auth";
import { listBrandsAction } from "@/lib/actions/brands";
import { listMembersAction } from "@/lib/actions/members";
import { listPromptsAction } from "@/lib/actions/prompts";
import { db } from "@/lib/db/prisma";
import { DEMO_BRAND, DEMO_LOGIN, DEMO_PROMPTS, DEMO_WORKSPACE } from "@/lib/seed/demo-content";
import { seedDemo } from "@/lib/seed/demo";

vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

describe("demo seed", () => {
  it("runs twice without error and creates one workspace, one owner, one brand and its prompts", async () => {
    const empty = await countRows();
    expect(empty.workspaces).toBe(0);

    const first = await seedDemo();
    expect(first).toEqual({ created: true, email: DEMO_LOGIN.email, password: DEMO_LOGIN.password });
    const afterFirst = await countRows();

    const second = await seedDemo();
    expect(second.created).toBe(false);
    expect(await countRows()).toEqual(afterFirst);

    expect(afterFirst).toMatchObject({
      users: 1,
      accounts: 1,
      workspaces: 1,
      memberships: 1,
      brands: 1,
      competitors: DEMO_BRAND.competitors.length,
      prompts: DEMO_PROMPTS.length,
    });
    const workspace = await db().workspace.findUniqueOrThrow({ where: { slug: DEMO_WORKSPACE.slug }, include: { memberships: { include: { user: true } } } });
    expect(workspace.memberships.map((m) => [m.user.email, m.role])).toEqual([[DEMO_LOGIN.email, "owner"]]);
    // The first account of the instance: its operator, so the Instance page has someone to run it.
    expect((await db().operator.findMany({ include: { user: true } })).map((o) => o.user.email)).toEqual([DEMO_LOGIN.email]);
  });

  it("gives a login that signs in and sees the demo workspace", async () => {
    await seedDemo();
    const browser = newBrowser();
    ok(await browser.run(() => signInAction({ email: DEMO_LOGIN.email, password: DEMO_LOGIN.password })));
    expect(ok(await browser.run(() => listMembersAction())).me.role).toBe("owner");
    expect(ok(await browser.run(() => listBrandsAction())).map((b) => b.name)).toEqual([DEMO_BRAND.name]);
    expect(ok(await browser.run(() => listPromptsAction({ pageSize: 100 }))).total).toBe(DEMO_PROMPTS.length);
  });
});
