// Names (workspaces, people, brands, competitors, aliases, prompt tags) through the real server
// actions and better-auth's HTTP endpoint: a bidi control or zero-width character is refused with
// a message on the field and changes nothing; a name is stored NFKC-normalised (lib/validation/text.ts).
import { describe, expect, it, vi } from "vitest";
import { newBrowser, PEER_ADDRESS_HEADER } from "../support/request-context";
import { countRows, expectFieldError, ok, PASSWORD, signUp, snapshotWorkspace, uniqueEmail } from "../support/workspace-fixtures";
import { POST } from "@/app/api/auth/[...all]/route";
import { signUpAction } from "@/lib/actions/auth";
import { createBrandAction, updateBrandAction } from "@/lib/actions/brands";
import { createPromptAction } from "@/lib/actions/prompts";
import { createWorkspaceAction } from "@/lib/actions/workspaces";
import { db } from "@/lib/db/prisma";

vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

const INVISIBLE = /invisible character/;
// "Acme" shown as "emcA": a right-to-left override; and "Ac<zero-width space>me".
const OVERRIDE = "Ac\u202Eme";
const ZERO_WIDTH = "Ac\u200Bme";

describe("names with invisible characters", () => {
  it("are refused with a message on the field, and nothing changes", async () => {
    const owner = await signUp({ name: "Nina Names", workspaceName: "Names Co" });
    const brand = ok(await owner.browser.run(() => createBrandAction({ name: "Acme", competitors: [{ name: "Globex" }] })));
    const before = { rows: await countRows(), workspace: await snapshotWorkspace(owner.workspaceId) };

    expectFieldError(await owner.browser.run(() => createWorkspaceAction({ name: OVERRIDE })), "name", INVISIBLE);
    expectFieldError(await newBrowser().run(() => signUpAction({ name: ZERO_WIDTH, email: uniqueEmail("zw"), password: PASSWORD })), "name", INVISIBLE);
    expectFieldError(
      await newBrowser().run(() => signUpAction({ name: "Fine Name", email: uniqueEmail("ws"), password: PASSWORD, workspaceName: "Team\u2066X" })),
      "workspaceName",
      INVISIBLE,
    );
    expectFieldError(await owner.browser.run(() => createBrandAction({ name: ZERO_WIDTH })), "name", INVISIBLE);
    for (const change of [
      { name: "Acme", competitors: [{ name: OVERRIDE }] },
      { name: "Acme", competitors: [{ name: "Globex", aliases: ["Glo\u200Dbex"] }] },
      { name: "Acme\uFEFF", competitors: [{ name: "Globex" }] },
    ]) {
      expectFieldError(await owner.browser.run(() => updateBrandAction({ brandId: brand.id, brand: change })), "brand", INVISIBLE);
    }
    expectFieldError(await owner.browser.run(() => createPromptAction({ text: "Which CRM is best?", tags: ["s\u200Beo"] })), "tags", INVISIBLE);

    // better-auth's own endpoint: the same rule for a display name.
    const response = await POST(
      new Request("http://localhost:3000/api/auth/sign-up/email", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost:3000", [PEER_ADDRESS_HEADER]: "192.0.2.61" },
        body: JSON.stringify({ name: `Eve\u202E`, email: uniqueEmail("http"), password: PASSWORD }),
      }),
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(INVISIBLE);

    expect(await countRows()).toEqual(before.rows);
    expect(await snapshotWorkspace(owner.workspaceId)).toEqual(before.workspace);
  });
});

describe("names in compatibility forms", () => {
  it("are stored NFKC-normalised: a full-width name is the ordinary one", async () => {
    const owner = await signUp({ name: "Ｆｕｌｌ Ｗｉｄｔｈ", email: uniqueEmail("full.width"), workspaceName: "Ｗｉｄｅ Ｃｏ" });
    expect((await db().user.findUniqueOrThrow({ where: { id: owner.userId } })).name).toBe("Full Width");
    expect((await db().workspace.findUniqueOrThrow({ where: { id: owner.workspaceId } })).name).toBe("Wide Co");

    const brand = ok(await owner.browser.run(() => createBrandAction({ name: "ＡＣＭＥ", competitors: [{ name: "Globex", aliases: ["ﬁnance"] }] })));
    const stored = await db().brand.findUniqueOrThrow({ where: { id: brand.id }, include: { competitors: true } });
    expect(stored.name).toBe("ACME");
    expect(stored.competitors.map((c) => c.aliases)).toEqual([["finance"]]);

    const prompt = ok(await owner.browser.run(() => createPromptAction({ text: "Which CRM is best?", tags: ["ＳＥＯ", "seo"] })));
    expect((await db().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).tags).toEqual(["seo"]);
  });
});
