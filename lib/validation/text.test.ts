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
