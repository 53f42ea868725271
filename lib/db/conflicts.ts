// PostgreSQL may end a transaction to resolve a conflict: a deadlock (40P01) picks one victim, and
// a serialization failure (40001) refuses a commit. Work that is all or nothing can simply run
// again; these run it again, a few times, with a short random pause.

export function isRetryableConflict(error: unknown): boolean {
  const e = error as { code?: string; meta?: { code?: string }; message?: string };
  return /40P01|40001|deadlock|could not serialize/i.test(`${e?.meta?.code ?? ""} ${e?.code ?? ""} ${e?.message ?? ""}`);
}

/** Runs `work` (a whole transaction, or one statement), again when it lost a conflict; at most 4 times. */
export async function retryingConflicts<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isRetryableConflict(error) || attempt >= 4) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 50));
    }
  }
}
