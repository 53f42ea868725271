import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { pageSettled } from "./content-mark";

/** A query the page observes, answered when `answer` is called (or failed by `fail`). */
function observed(client: QueryClient, key: string, options: { enabled?: boolean } = {}) {
  let answer!: (value: string) => void;
  let fail!: (error: Error) => void;
  const observer = new QueryObserver(client, {
    queryKey: [key],
    queryFn: () =>
      new Promise<string>((resolve, reject) => {
        answer = resolve;
        fail = reject;
      }),
    retry: false,
    ...options,
  });
  const unsubscribe = observer.subscribe(() => {});
  const settled = () => new Promise<void>((resolve) => client.getQueryCache().subscribe(() => client.getQueryState([key])?.fetchStatus === "idle" && resolve()));
  return { answer: (v: string) => (answer(v), settled()), fail: (e: Error) => (fail(e), settled()), unsubscribe };
}

describe("pageSettled", () => {
  it("waits for every observed query's first answer or error", async () => {
    const client = new QueryClient();
    expect(pageSettled(client)).toBe(false); // nothing asked yet: the page has not started
    const kpis = observed(client, "kpis");
    const chart = observed(client, "chart");
    expect(pageSettled(client)).toBe(false);
    await kpis.answer("ok");
    expect(pageSettled(client)).toBe(false);
    await chart.fail(new Error("refused"));
    expect(pageSettled(client)).toBe(true);
  });

  it("ignores disabled queries and those no component observes any more", async () => {
    const client = new QueryClient();
    const table = observed(client, "table");
    observed(client, "retry-dialog", { enabled: false });
    const left = observed(client, "previous-page");
    left.unsubscribe();
    await table.answer("rows");
    expect(pageSettled(client)).toBe(true);
  });

  it("is not settled while an observed query refetches", async () => {
    const client = new QueryClient();
    const table = observed(client, "table");
    await table.answer("rows");
    void client.refetchQueries({ queryKey: ["table"] });
    expect(pageSettled(client)).toBe(false);
  });
});
