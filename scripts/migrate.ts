// npm run migrate: apply prisma/migrations and graphile-worker's schema to the database.
import { getDatabase } from "@/lib/db/database-url";
import { migrate } from "@/lib/instance/migrate";

const db = await getDatabase((line) => console.log(`[db] ${line}`));
try {
  const { applied, alreadyApplied } = await migrate(db.url, { log: (line) => console.log(`[migrate] ${line}`) });
  console.log(`[migrate] ${applied.length} applied, ${alreadyApplied.length} already applied`);
} catch (error) {
  console.error(`[migrate] ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await db.stop();
}
