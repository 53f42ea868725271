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
