// This worker process's identity, for the tasks it runs. Tasks wait for it before they start an
// attempt, so no attempt exists before the heartbeat row the sweeper relies on.
let resolveIdentity: (workerId: string) => void;
const identity = new Promise<string>((resolve) => (resolveIdentity = resolve));

export function setWorkerIdentity(workerId: string): void {
  resolveIdentity(workerId);
}

export function workerIdentity(): Promise<string> {
  return identity;
}
