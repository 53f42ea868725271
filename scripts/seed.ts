// npm run db:seed: create the demo workspace and login in the database (once; a second run
// changes nothing). Uses DATABASE_URL, or the embedded PostgreSQL in BEACON_DATA_DIR.
import { setDatabaseUrl } from "@/lib/config/env";
import { getDatabase } from "@/lib/db/database-url";
import { migrate } from "@/lib/instance/migrate";

const database = await getDatabase((line) => console.log(`[db] ${line}`));
try {
  await migrate(database.url, { log: (line) => console.log(`[migrate] ${line}`) });
  // db() reads DATABASE_URL when first used, so it must be set before the seed module loads.
  setDatabaseUrl(database.url);
  const { seedDemo } = await import("@/lib/seed/demo");
  const { disconnectDb } = await import("@/lib/db/prisma");
  try {
    const result = await seedDemo({ log: (line) => console.log(`[seed] ${line}`) });
    console.log(`[seed] ${result.created ? "demo data created" : "demo data already present"}`);
    console.log(`[seed] demo login: ${result.email} / ${result.password}`);
  } finally {
    await disconnectDb();
  }
} catch (error) {
  console.error(`[seed] ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await database.stop();
}
