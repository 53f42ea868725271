import { describe, expect, it } from "vitest";
import { transliteratedAliases } from "./transliteration";

describe("transliteratedAliases", () => {
  it("offers the name in the other script, both ways", () => {
    expect(transliteratedAliases("Ozon")).toEqual(["Озон"]);
    expect(transliteratedAliases("Озон")).toEqual(["Ozon"]);
    expect(transliteratedAliases("Магнит")).toEqual(["Magnit"]);
  });

  it("leaves out aliases already there and spellings that would mix scripts", () => {
    expect(transliteratedAliases("Ozon", ["озон"])).toEqual([]);
    expect(transliteratedAliases("HubSpot")).toEqual([]);
    expect(transliteratedAliases("飞书")).toEqual([]);
    expect(transliteratedAliases("  ")).toEqual([]);
  });
});
