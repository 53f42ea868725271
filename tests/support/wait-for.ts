// Polling with a deadline, for tests that watch real processes: wait for a condition, never for a
// fixed time. The probe runs at once and then every `intervalMs` until it returns something
// truthy (returned to the caller) or the deadline passes (the test fails, saying what it waited
// for and what it saw last). A probe may also throw (an `expect` that does not hold yet): that
// counts as "not yet", and the last error is reported if the deadline passes.

export type WaitOptions = {
  /** What is being waited for, for the failure message. */
  what: string;
  timeoutMs: number;
  intervalMs?: number;
  /** Extra context for the failure message (e.g. worker output), computed only on failure. */
  details?: () => string;
};

export class WaitTimeoutError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "WaitTimeoutError";
  }
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function describe(value: unknown): string {
  if (value instanceof Error) return value.message;
  try {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v))?.slice(0, 2000) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Resolves with the probe's first truthy value; rejects with WaitTimeoutError at the deadline. */
export async function waitFor<T>(probe: () => T | Promise<T>, options: WaitOptions): Promise<NonNullable<T>> {
  const started = Date.now();
  const deadline = started + options.timeoutMs;
  const interval = options.intervalMs ?? 50;
  let last: { value?: unknown; error?: unknown } = {};
  for (;;) {
    try {
      const value = await probe();
      if (value) return value as NonNullable<T>;
      last = { value };
    } catch (error) {
      last = { error };
    }
    const left = deadline - Date.now();
    if (left <= 0) break;
    await pause(Math.min(interval, left));
  }
  const seen = "error" in last && last.error !== undefined ? `last error: ${describe(last.error)}` : `last value: ${describe(last.value)}`;
  const extra = options.details ? `\n${options.details()}` : "";
  throw new WaitTimeoutError(`Timed out after ${Date.now() - started} ms waiting for ${options.what} (${seen})${extra}`, {
    cause: last.error,
  });
}
