// A worker's view of which connections are full (lib/jobs/forbidden-flags.ts): graphile-worker
// asks for it before every fetch. An old view is served at once and read again behind the fetch
// (no round trip before a job starts); a view dropped because a slot may have been freed is
// read again before the next fetch is answered, so the freed slot's next capture is not skipped.
// Time is this process's clock only (the view's age); the database is real.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { claimed, liveWorker, newSpace, startSpaceCheck, succeed, type Space } from "../support/lifecycle-fixtures";
import { db } from "@/lib/db/prisma";
import { jobCatalog } from "@/lib/jobs/catalog";
import { forbiddenProviderFlags, slotsMayHaveFreed } from "@/lib/jobs/forbidden-flags";

let space: Space;
let workerId: string;

beforeEach(async () => {
  space = await newSpace({ prompts: 2 });
  workerId = await liveWorker();
  vi.useFakeTimers({ toFake: ["Date"] });
});

afterEach(() => {
  vi.useRealTimers();
});

// vi.waitFor gives up after 1 s by default: a deadline for a read behind the caller that a loaded
// machine can miss. This one only catches a read that never lands.
const WAIT = { timeout: 30_000 };

/** The view once its age has passed, after the read it started behind the caller has landed. */
async function settledView(): Promise<string[]> {
  vi.setSystemTime(Date.now() + 1_000);
  const served = await forbiddenProviderFlags();
  // The read behind it: the next call within the age gets what it read.
  await vi.waitFor(async () => expect(await forbiddenProviderFlags()).not.toBe(served), WAIT);
  return forbiddenProviderFlags();
}

describe("which connections are full, as a worker sees it", () => {
  it("serves an old view at once and reads it again behind the fetch; a freed slot makes the next fetch read it first", async () => {
    const connectionId = space.connections.ChatGPT!;
    const flag = jobCatalog.capture.flag(connectionId);
    await db().providerConnection.update({ where: { id: connectionId }, data: { maxConcurrency: 1 } });
    const [a, b] = (await startSpaceCheck(space, { prompts: 2 })).captureIds;

    // Start from a view that says nothing is full.
    vi.setSystemTime(Date.now() + 1_000);
    await forbiddenProviderFlags();
    await vi.waitFor(async () => expect(await forbiddenProviderFlags()).not.toContain(flag), WAIT);

    // The only slot is taken. Within the view's age, the old view stands; once it is old, the
    // caller still gets it at once (not full), and the read behind it finds the connection full.
    const runA = await claimed(a!, workerId);
    expect(await forbiddenProviderFlags()).not.toContain(flag);
    vi.setSystemTime(Date.now() + 1_000);
    expect(await forbiddenProviderFlags(), "an old view is served without waiting").not.toContain(flag);
    await vi.waitFor(async () => expect(await forbiddenProviderFlags()).toContain(flag), WAIT);

    // The slot is given back and graphile-worker says a job completed: the very next fetch sees
    // the connection free, though the view is young.
    await succeed(a!, runA);
    expect(await forbiddenProviderFlags(), "young view, not told: still full").toContain(flag);
    slotsMayHaveFreed();
    expect(await forbiddenProviderFlags(), "told a slot may have freed: read before answering").not.toContain(flag);

    // Full again; an old view is corrected behind the fetch as before.
    await claimed(b!, workerId);
    expect(await settledView()).toContain(flag);
  });
});
