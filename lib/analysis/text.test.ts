import { describe, expect, it } from "vitest";
import { segmentsOf, sentencesOf } from "./text";

describe("segmentsOf", () => {
  it("turns markdown blocks into plain text segments", () => {
    expect(segmentsOf("# Title\n\nSome **bold** and [a link](https://x.com).\n\n- one\n- two\n\n| a | b |\n| - | - |\n| c | d |")).toEqual([
      "Title",
      "Some bold and a link.",
      "one",
      "two",
      "c | d",
    ]);
  });

  it("reads any depth of quotes and lists, skips code, and keeps citations and names with markers in them", () => {
    const answer = [
      `${"> ".repeat(5000)}- **Deep** in [quotes](https://x.com/a_(b)) and lists.`,
      "",
      "```js",
      "HubSpot.init();",
      "```",
      "E*TRADE and snake_case stay; see [1] and ![logo](https://x.com/logo.png) Acme\\_Corp.",
      "## Closing ##",
    ].join("\n");
    expect(segmentsOf(answer)).toEqual(["Deep in quotes and lists.", "E*TRADE and snake_case stay; see [1] and logo Acme_Corp.", "Closing"]);
  });
});

describe("sentencesOf", () => {
  it("splits at sentence ends but not inside names or abbreviations", () => {
    expect(sentencesOf("Monday.com is good. Node.js too! Use e.g. HubSpot vs. Salesforce? Yes")).toEqual([
      "Monday.com is good.",
      "Node.js too!",
      "Use e.g. HubSpot vs. Salesforce?",
      "Yes",
    ]);
  });
});
