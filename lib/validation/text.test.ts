import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { text } from "./text";

describe("text()", () => {
  const name = text({ max: 10, min: 1, label: "A name" });
  const body = text({ max: 100, multiline: true, label: "A prompt" });

  it("trims and accepts ordinary text, accents and emoji", () => {
    expect(name.parse("  Zoë ✓ ")).toBe("Zoë ✓");
    expect(body.parse("line one\n\tline two")).toBe("line one\n\tline two");
  });

  it("refuses NUL and other control characters with a message naming the field", () => {
    for (const bad of ["a\u0000b", "a\u0007", "\u001b[31m", "x\u007f"]) {
      const result = name.safeParse(bad);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toMatch(/^A name contains a control character/);
    }
    expect(name.safeParse("two\nlines").success, "line breaks only in multi-line text").toBe(false);
    expect(body.safeParse("nul\u0000").success).toBe(false);
  });

  it("enforces the limits after trimming", () => {
    expect(name.safeParse("   ").error?.issues[0]?.message).toBe("A name is required");
    expect(name.safeParse("x".repeat(11)).error?.issues[0]?.message).toBe("A name can have at most 10 characters");
    expect(name.safeParse(` ${"x".repeat(10)} `).success).toBe(true);
  });

  it("never lets a control character through, whatever the string", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 50 }), (value) => {
        const result = body.safeParse(value);
        if (result.success) expect(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(result.data)).toBe(false);
      }),
    );
  });
});

describe("text() for one-line names", () => {
  const name = text({ max: 60, min: 1, label: "The workspace name" });
  const body = text({ max: 100, multiline: true, label: "A prompt" });
  const BIDI = ["\u061C", "\u200E", "\u200F", "\u202A", "\u202B", "\u202C", "\u202D", "\u202E", "\u2066", "\u2067", "\u2068", "\u2069"];
  const INVISIBLE = ["\u200B", "\u200C", "\u200D", "\u2060", "\u2063", "\uFEFF", "\u00AD", "\u3164"];

  it("refuses bidi controls and zero-width characters, naming the field and the character", () => {
    expect(name.safeParse("Acme\u202Eemca").error?.issues[0]?.message).toBe(
      "The workspace name contains an invisible character (U+202E, a text-direction control or zero-width character); remove it",
    );
    for (const bad of [...BIDI, ...INVISIBLE]) {
      expect(name.safeParse(`Ac${bad}me`).success, `U+${bad.codePointAt(0)!.toString(16)}`).toBe(false);
    }
  });

  it("keeps joiners where they are spelling or emoji", () => {
    expect(name.parse("می\u200Cخواهم")).toBe("می\u200Cخواهم");
    expect(name.parse("क्\u200Dष")).toBe("क्\u200Dष");
    expect(name.parse("Dev team 👩\u200D💻")).toBe("Dev team 👩\u200D💻");
    expect(name.parse("Fire ❤\uFE0F\u200D🔥")).toBe("Fire ❤\uFE0F\u200D🔥");
    expect(name.safeParse("Acme\u200D").success).toBe(false);
    expect(name.safeParse("👩\u200Dx").success).toBe(false);
  });

  it("NFKC-normalises: full-width letters, ligatures and compatibility forms become ordinary ones", () => {
    expect(name.parse("ＡＣＭＥ Ｃｏ")).toBe("ACME Co");
    expect(name.parse("Eﬃcient ①")).toBe("Efficient 1");
    expect(name.parse("Cafe\u0301")).toBe("Café");
    expect(body.parse("ＡＣＭＥ\u200B?")).toBe("ＡＣＭＥ\u200B?");
  });

  it("is idempotent and leaves only NFKC text without invisible characters, whatever the string", () => {
    const invisible = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u00AD\u034F\u180E\u200B\u2060-\u2064\uFEFF\u115F\u1160\u3164\uFFA0]/u;
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), (value) => {
        const result = name.safeParse(value);
        if (!result.success) return;
        expect(result.data).toBe(result.data.normalize("NFKC"));
        expect(invisible.test(result.data)).toBe(false);
        expect(name.parse(result.data)).toBe(result.data);
      }),
    );
  });

  it("refuses any name with a bidi control or zero-width space inserted anywhere", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 30 }), fc.nat(), fc.constantFrom(...BIDI, "\u200B", "\uFEFF", "\u2060"), (value, at, bad) => {
        const i = at % (value.length + 1);
        expect(name.safeParse(value.slice(0, i) + bad + value.slice(i)).success).toBe(false);
      }),
    );
  });
});
