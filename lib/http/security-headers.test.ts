import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, securityHeaders } from "@/lib/http/security-headers";

const directives = (policy: string) => new Map(policy.split("; ").map((d) => [d.split(" ")[0]!, d.split(" ").slice(1)] as const));

describe("security headers", () => {
  it("forbid framing, sniffing, other origins and eval in production", () => {
    const csp = directives(contentSecurityPolicy("production"));
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp.get("default-src")).toEqual(["'self'"]);
    expect(csp.get("object-src")).toEqual(["'none'"]);
    expect(csp.get("script-src")).not.toContain("'unsafe-eval'");
    expect([...csp.values()].flat().filter((source) => /^(https?:|\*)/.test(source))).toEqual([]);
    const headers = Object.fromEntries(securityHeaders("production").map((h) => [h.key, h.value]));
    expect(headers).toMatchObject({
      "X-Frame-Options": "DENY",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "strict-origin-when-cross-origin",
    });
    expect(headers["Permissions-Policy"]).toContain("camera=()");
  });

  it("let React's development build evaluate code and Next's dev server reload over a websocket", () => {
    const csp = directives(contentSecurityPolicy("development"));
    expect(csp.get("script-src")).toContain("'unsafe-eval'");
    expect(csp.get("connect-src")).toContain("ws:");
  });
});
