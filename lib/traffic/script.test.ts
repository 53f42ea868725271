import { describe, expect, it } from "vitest";
import { PIXEL_GIF, TRACKER_SCRIPT } from "@/lib/traffic/script";

describe("the /t.js script", () => {
  it("stays under 2 KB as served and never touches cookies or storage", () => {
    expect(Buffer.byteLength(TRACKER_SCRIPT)).toBeLessThan(2048);
    expect(TRACKER_SCRIPT).not.toMatch(/cookie|localStorage|sessionStorage/);
    expect(() => new Function(TRACKER_SCRIPT)).not.toThrow();
  });

  it("answers with a real 1x1 GIF", () => {
    expect(PIXEL_GIF.subarray(0, 6).toString("latin1")).toBe("GIF89a");
    expect([PIXEL_GIF.readUInt16LE(6), PIXEL_GIF.readUInt16LE(8)]).toEqual([1, 1]);
  });
});
