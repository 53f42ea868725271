// Creates the default provider connections (lib/providers/defaults.ts) that an instance does not
// have yet, by name: run after the migrations (lib/instance/migrate.ts), so a fresh database, a test
// template and an upgraded instance all have them. An operator's changes to them are kept.
import type pg from "pg";
import { DEFAULT_CONNECTIONS } from "@/lib/providers/defaults";

export async function ensureDefaultConnections(client: pg.ClientBase): Promise<number> {
  // A database migrated only part of the way (a test of one migration) still has the adapter enum
  // and lacks the values that later migrations add: their connections come when those have run.
  // From 20261206100000 the column is text and every engine is known.
  const { rows } = await client.query<{ adapter: string }>(
    `SELECT e.enumlabel AS adapter FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid
      WHERE t.typname = 'ProviderAdapter' AND t.typnamespace = current_schema()::regnamespace`,
  );
  const known = rows.length > 0 ? new Set(rows.map((r) => r.adapter)) : undefined;
  let created = 0;
  for (const c of DEFAULT_CONNECTIONS.filter((d) => !known || known.has(d.adapter))) {
    const { rowCount } = await client.query(
      `INSERT INTO provider_connections (name, adapter, models, "inputPricePerMTokMicros", "outputPricePerMTokMicros", "cachedPricePerMTokMicros",
         "reasoningPricePerMTokMicros", "searchPriceMicros", settings, "grantedToAll")
       VALUES ($1, $2, $3::text[], $4, $5, $6, $7, $8, $9::jsonb, $10)
       ON CONFLICT (name) DO NOTHING`,
      [c.name, c.adapter, c.models, c.prices.input, c.prices.output, c.prices.cached, c.prices.reasoning, c.prices.search, JSON.stringify(c.settings), c.grantedToAll],
    );
    created += rowCount ?? 0;
  }
  return created;
}
