// Run as its own process by tests/integration/connection-fatal.test.ts, pointed (DATABASE_URL)
// at a proxy that ends the first connection with a FATAL right after its start-up. It takes one
// connection the way each of the product's pools does, then a second one, and prints what each
// gave. An unhandled 'error' event kills this process, as it killed a worker in CI.
import { db, disconnectDb } from "@/lib/db/prisma";
import { patientPool } from "@/lib/jobs/patient-pool";

const outcome = (p: Promise<unknown>) => p.then(() => "ok", (error: Error) => `failed: ${error.message.split("\n")[0]}`);

async function prisma(): Promise<string[]> {
  const once = () => outcome(db().$transaction(async (tx) => tx.$queryRaw`select 1`));
  const result = [await once(), await once()];
  await disconnectDb();
  return result;
}

async function jobs(): Promise<string[]> {
  const { pool } = patientPool({ connectionString: process.env.DATABASE_URL!, max: 1, log: () => {} });
  const once = () =>
    outcome(
      pool.connect().then(async (client) => {
        try {
          await client.query("select 1");
        } finally {
          client.release(true);
        }
      }),
    );
  const result = [await once(), await once()];
  await pool.end();
  return result;
}

const which = process.argv[2];
const result = which === "jobs" ? await jobs() : await prisma();
// The FATAL's socket close may still be on its way: give it a turn of the event loop to arrive.
await new Promise((resolve) => setImmediate(resolve));
console.log(JSON.stringify(result));
