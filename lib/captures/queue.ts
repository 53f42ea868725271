import "server-only";
import { db } from "@/lib/db/prisma";
import { enqueueCaptureJobs } from "@/lib/jobs/enqueue";

/** Breaker open: the capture waits without spending an attempt (queued -> postponed -> queued). */
export async function postponeCapture(captureId: string, until: Date): Promise<void> {
  await db().$transaction(async (tx) => {
    const { count } = await tx.capture.updateMany({
      where: { id: captureId, status: { in: ["queued", "retry_wait", "postponed"] }, cancelRequestedAt: null },
      data: { status: "postponed", nextAttemptAt: until },
    });
    if (count) await enqueueCaptureJobs(tx, { captureIds: [captureId] }, until);
  });
}

/** Every slot of the provider is taken: try again shortly (the job only, the capture stays queued). */
export async function requeueSoon(captureId: string, delayMs: number): Promise<void> {
  await db().$transaction((tx) => enqueueCaptureJobs(tx, { captureIds: [captureId] }, new Date(Date.now() + delayMs)));
}
