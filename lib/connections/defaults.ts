// Creates the default provider connections (lib/providers/defaults.ts) that an instance does not
// have yet, by name: run after the migrations (lib/instance/migrate.ts), so a fresh database, a test
// template and an upgraded instance all have them. An operator's changes to them are kept.
import type pg from "pg";
import { DEFAULT_CONNECTIONS } from "@/lib/providers/defaults";

export async function ensureDefaultConnections(client: pg.ClientBase): Promise<number> {
  // A database migrated only part of the way (a test of one migration) lacks the adapters that
  // later migrations add: their connections come when those migrations have run.
  const { rows } = await client.query<{ adapter: string }>(`SELECT unnest(enum_range(NULL::"ProviderAdapter"))::text AS adapter`);
  const known = new Set(rows.map((r) => r.adapter));
  let created = 0;
  for (const c of DEFAULT_CONNECTIONS.filter((d) => known.has(d.adapter))) {
    const { rowCount } = await client.query(
      `INSERT INTO provider_connections (name, adapter, models, "inputPricePerMTokMicros", "outputPricePerMTokMicros", "cachedPricePerMTokMicros",
         "reasoningPricePerMTokMicros", "searchPriceMicros", settings, "grantedToAll")
       VALUES ($1, $2::"ProviderAdapter", $3::text[], $4, $5, $6, $7, $8, $9::jsonb, $10)
       ON CONFLICT (name) DO NOTHING`,
      [c.name, c.adapter, c.models, c.prices.input, c.prices.output, c.prices.cached, c.prices.reasoning, c.prices.search, JSON.stringify(c.settings), c.grantedToAll],
    );
    created += rowCount ?? 0;
  }
  return created;
}
