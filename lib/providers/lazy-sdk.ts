// Provider SDKs are loaded on an adapter's first call, not when the registry is imported: together
// they take about 50 MB of the worker's memory (Anthropic's alone about 30), and a worker whose
// connections use only the simulator never needs them. configured() reads the connection only.

/** `load` (a dynamic import) once, on the first call; a failed load is tried again next time. */
export function lazySdk<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
