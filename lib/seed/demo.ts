import "server-only";
import { randomUUID } from "node:crypto";
import { passwordHashing } from "@/lib/auth/password-hash";
import { env } from "@/lib/config/env";
import { db } from "@/lib/db/prisma";
import { transaction } from "@/lib/db/transaction";
import { claimFirstOperator } from "@/lib/instance/operators";
import { createDefaultProviders } from "@/lib/workspaces/provider-configs";
import { DEFAULT_CONNECTIONS, defaultProviderName, defaultSearchMode } from "@/lib/providers/defaults";
import type { Prisma } from "@/lib/generated/prisma/client";
import { DEMO_BRAND, DEMO_LOGIN, DEMO_PROMPTS, DEMO_WORKSPACE } from "@/lib/seed/demo-content";
import { seedDemoHistory } from "@/lib/seed/demo-history";

export type SeedResult = { created: boolean; email: string; password: string };

/**
 * Creates the demo workspace, its owner and its tracking setup, once. Running it again does
 * nothing, so `npm run dev` can call it on every start.
 */
export async function seedDemo(opts: { log?: (line: string) => void } = {}): Promise<SeedResult> {
  const log = opts.log ?? (() => {});
  const result = { email: DEMO_LOGIN.email, password: DEMO_LOGIN.password };
  if (await db().workspace.findUnique({ where: { slug: DEMO_WORKSPACE.slug } })) {
    return { created: false, ...result };
  }

  // Hashed as sign-up hashes (lib/auth/password-hash.ts).
  const passwordHash = await passwordHashing(env().BEACON_TEST_CHEAP_PASSWORD_HASH).hash(DEMO_LOGIN.password);
  const workspaceId = await transaction(async (tx) => {
    const existing = await tx.user.findUnique({ where: { email: DEMO_LOGIN.email } });
    const userId = existing?.id ?? randomUUID();
    if (!existing) {
      await tx.user.create({
        data: {
          id: userId,
          name: DEMO_LOGIN.name,
          email: DEMO_LOGIN.email,
          emailVerified: true,
          accounts: { create: { id: randomUUID(), accountId: userId, providerId: "credential", password: passwordHash } },
        },
      });
    }
    const workspace = await tx.workspace.create({
      data: { ...DEMO_WORKSPACE, memberships: { create: { userId, role: "owner" } } },
    });
    await tx.brand.create({
      data: {
        workspaceId: workspace.id,
        name: DEMO_BRAND.name,
        aliases: DEMO_BRAND.aliases,
        domains: DEMO_BRAND.domains,
        competitors: { create: DEMO_BRAND.competitors.map((c) => ({ ...c, workspaceId: workspace.id })) },
      },
    });
    await tx.prompt.createMany({ data: DEMO_PROMPTS.map((p) => ({ ...p, workspaceId: workspace.id })) });
    await createDefaultProviders(tx, workspace.id);
    await addDemoPersonas(tx, workspace.id);
    // The demo account is the first account of a fresh instance, so it runs the instance too
    // (the Instance page); on an instance that already has an operator this does nothing.
    await claimFirstOperator(tx, userId);
    return workspace.id;
  });
  const days = env().BEACON_DEMO_HISTORY_DAYS;
  if (days > 0) {
    const history = await seedDemoHistory(workspaceId, { days });
    log(`demo history: ${history.checks} days, ${history.captures} simulated captures`);
  }
  log(`demo workspace created: sign in as ${DEMO_LOGIN.email} / ${DEMO_LOGIN.password}`);
  return { created: true, ...result };
}

/**
 * The simulated engines beyond the four assistants (Google's AI Overviews, GigaChat, Alice AI),
 * granted to the demo workspace and added as providers switched off: one click in Settings →
 * Providers puts each into the next check, and the four assistants stay what a check asks by default.
 */
async function addDemoPersonas(tx: Prisma.TransactionClient, workspaceId: string): Promise<void> {
  const names = DEFAULT_CONNECTIONS.filter((c) => c.adapter === "simulator" && !c.grantedToAll).map((c) => c.name);
  const connections = await tx.providerConnection.findMany({ where: { name: { in: names }, enabled: true }, orderBy: { name: "asc" } });
  for (const connection of connections) {
    await tx.connectionGrant.create({ data: { connectionId: connection.id, workspaceId } });
    await tx.providerConfig.create({
      data: { workspaceId, name: defaultProviderName(connection), connectionId: connection.id, model: connection.models[0]!, searchMode: defaultSearchMode(connection), enabled: false },
    });
  }
}
