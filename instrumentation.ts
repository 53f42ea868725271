// Next.js calls register() once when a server starts (`next start`, and the server process that
// `next dev` forks). A server started by the launcher (scripts/run.ts) stops when the launcher
// dies without stopping it (lib/process/launcher-watchdog.ts).
export async function register() {
  // This form (not an early return) lets Next drop the Node.js-only code from the edge bundle.
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { watchLauncher } = await import("@/lib/process/launcher-watchdog");
    const { WEB_STOP_DEADLINE_MS } = await import("@/lib/process/stop-deadlines");
    // Next's own SIGTERM handler closes the server and exits with a code, which also ends the
    // `next dev` parent; the watchdog's deadline covers a request that never finishes.
    watchLauncher(() => process.kill(process.pid, "SIGTERM"), { deadlineMs: WEB_STOP_DEADLINE_MS });
    // Production: render the sign-in page once as soon as the server listens (lib/process/warm-up.ts);
    // `next dev` compiles routes on request, which the launcher warms itself.
    if (process.env.NODE_ENV === "production") {
      const { warmUpSelf } = await import("@/lib/process/warm-up");
      warmUpSelf();
    }
  }
}
