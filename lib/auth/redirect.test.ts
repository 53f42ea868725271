import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "./redirect";

const ORIGIN = "https://beacon.example.com";

/** Where a browser on ORIGIN goes when a script navigates to `target`. */
const landsOn = (target: string) => new URL(target, `${ORIGIN}/login`).origin;

describe("safeRedirectPath", () => {
  it("keeps paths on this site, with their query and fragment", () => {
    for (const path of ["/", "/checks", "/invite/abc_DEF-123", "/prompts?tag=a&page=2", "/checks/1#captures", "/analytics/sources?q=hello%20world"]) {
      expect(safeRedirectPath(path, "/", ORIGIN)).toBe(path);
    }
  });

  it("normalises dot segments the way the browser would", () => {
    expect(safeRedirectPath("/checks/../members", "/", ORIGIN)).toBe("/members");
  });

  it.each([
    ["the reported one: an encoded backslash", "/%5Cevil.example"],
    ["a lower-case encoded backslash", "/%5cevil.example"],
    ["a backslash", "/\\evil.example"],
    ["two backslashes", "\\\\evil.example"],
    ["a protocol-relative URL", "//evil.example"],
    ["a protocol-relative URL with a path", "//evil.example/login"],
    ["three slashes", "///evil.example"],
    ["an encoded second slash", "/%2Fevil.example"],
    ["an encoded double slash", "%2F%2Fevil.example"],
    ["an absolute URL", "https://evil.example"],
    ["an absolute URL on this site's host", `${ORIGIN}/checks`],
    ["a javascript: URL", "javascript:alert(1)"],
    ["a data: URL", "data:text/html,<script>alert(1)</script>"],
    ["a scheme without slashes", "https:evil.example"],
    ["a tab between the slashes", "/\t/evil.example"],
    ["a line break between the slashes", "/\n/evil.example"],
    ["an encoded tab between the slashes", "/%09/evil.example"],
    ["a NUL", "/checks\u0000"],
    ["an encoded NUL", "/checks%00"],
    ["a leading space", " //evil.example"],
    ["a relative path", "checks"],
    ["an empty string", ""],
    ["malformed percent-encoding", "/%E0%A4%A"],
    ["a dot segment that brings an encoded slash to the front", "/../%2F"],
    ["a very long path", `/${"a".repeat(5000)}`],
  ])("refuses %s", (_, next) => {
    expect(safeRedirectPath(next, "/fallback", ORIGIN)).toBe("/fallback");
  });

  it("refuses what is not a string", () => {
    for (const next of [undefined, null, 42, ["/checks"], { path: "/" }]) expect(safeRedirectPath(next)).toBe("/");
  });

  it("never returns anything that leaves the site, whatever the input", () => {
    const pieces = fc.constantFrom("/", "\\", "//", "%2F", "%5C", "%5c", "%09", "\t", "\n", "%00", ":", "https:", "evil.example", "@", "?", "#", ".", "..", "%2E", " ", "a");
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 8 }).map((parts) => parts.join("")), fc.string(), (built, random) => {
        for (const next of [built, random, `/${random}`]) {
          const result = safeRedirectPath(next, "/", ORIGIN);
          expect(result.startsWith("/")).toBe(true);
          expect(landsOn(result)).toBe(ORIGIN);
          // What it returns passes its own check unchanged (stable when used twice).
          expect(safeRedirectPath(result, "/fallback", ORIGIN)).toBe(result);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
