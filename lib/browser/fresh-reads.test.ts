import { describe, expect, it } from "vitest";
import { FRESH_READ_HEADER } from "@/lib/analytics/filter-query";
import { freshReadHeaders, readFreshAfterWrite } from "./fresh-reads";

describe("chart requests after a write the charts must show", () => {
  it("ask for the primary for a while after the page learns of it, and not before or after", () => {
    const at = Date.UTC(2026, 11, 6, 12);
    expect(freshReadHeaders(at)).toEqual({});
    readFreshAfterWrite(at);
    expect(freshReadHeaders(at + 1)).toEqual({ [FRESH_READ_HEADER]: "1" });
    expect(freshReadHeaders(at + 9_999)).toEqual({ [FRESH_READ_HEADER]: "1" });
    expect(freshReadHeaders(at + 10_000)).toEqual({});
    // A second write extends the while; an older clock reading never shortens it.
    readFreshAfterWrite(at + 5_000);
    readFreshAfterWrite(at);
    expect(freshReadHeaders(at + 14_999)).toEqual({ [FRESH_READ_HEADER]: "1" });
    expect(freshReadHeaders(at + 15_000)).toEqual({});
  });
});
