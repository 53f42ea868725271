import { describe, expect, it } from "vitest";
import { setupPrompt } from "./prompt";
import { startSetupSchema } from "./schemas";

describe("the setup prompt", () => {
  it("carries the address as typed and what the site sells, when the wizard has them", () => {
    const input = startSetupSchema.parse({ domain: "https://www.Northwind-Outdoor.co.uk/tents/?ref=ad", offering: " camping  tents ", language: "en", connectionId: crypto.randomUUID() });
    expect(input).toMatchObject({ domain: "northwind-outdoor.co.uk", address: "northwind-outdoor.co.uk/tents", offering: "camping tents" });
    const prompt = setupPrompt(input);
    expect(prompt).toContain("Their website is northwind-outdoor.co.uk (they entered northwind-outdoor.co.uk/tents).");
    expect(prompt).toContain('In their own words, they sell: "camping tents".');
  });

  it("is the one it was for a bare domain and no description", () => {
    const input = startSetupSchema.parse({ domain: "lumen.fr", offering: "", language: "fr", connectionId: crypto.randomUUID() });
    expect(input.offering).toBeUndefined();
    const prompt = setupPrompt(input);
    expect(prompt.split("\n")[0]).toBe("You help a marketing team measure how AI assistants talk about their brand. Their website is lumen.fr.");
    expect(prompt).not.toContain("they sell");
  });
});
