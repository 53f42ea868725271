import { describe, expect, it } from "vitest";
import { parseReadinessOrigins } from "./readiness-origins";

describe("parseReadinessOrigins", () => {
  it("maps each domain, written as brands write domains, to its origin", () => {
    const parsed = parseReadinessOrigins(" WWW.Lumencrm.com=http://127.0.0.1:8080/, shop.example.com=https://staging.example.net  bücher.de=http://[::1]:81");
    expect(parsed).toEqual({
      ok: true,
      origins: new Map([
        ["lumencrm.com", "http://127.0.0.1:8080"],
        ["shop.example.com", "https://staging.example.net"],
        ["xn--bcher-kva.de", "http://[::1]:81"],
      ]),
    });
  });

  it.each([
    ["", "list at least one domain=origin pair"],
    ["lumencrm.com", '"lumencrm.com" is not domain=origin'],
    ["=http://127.0.0.1", '"=http://127.0.0.1" is not domain=origin'],
    ["lumencrm.com=127.0.0.1:8080", '"127.0.0.1:8080" (for lumencrm.com) is not a URL'],
    ["lumencrm.com=//10.0.0.5", '"//10.0.0.5" (for lumencrm.com) is not a URL'],
    ["lumencrm.com=ftp://10.0.0.5", "the origin for lumencrm.com must be http or https, not ftp:"],
    ["lumencrm.com=http://10.0.0.5/site", "the origin for lumencrm.com must be scheme, host and port only (http://10.0.0.5), not http://10.0.0.5/site"],
    ["lumencrm.com=http://10.0.0.5 www.lumencrm.com=http://10.0.0.6", "lumencrm.com is listed twice"],
  ])("refuses %j: %s", (spec, error) => {
    expect(parseReadinessOrigins(spec)).toEqual({ ok: false, error });
  });
});
