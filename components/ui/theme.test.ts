// Dark mode remaps the palette under `.dark` (app/globals.css); `white` is not remapped, so a
// surface painted bg-white stays white in dark mode and the slate text on it becomes unreadable
// (a sticky table column and a tooltip did, before this test). Surfaces use bg-surface.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = process.cwd();

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(relative);
    return entry.name.endsWith(".tsx") ? [relative] : [];
  });
}

describe("theme", () => {
  it("paints no surface bg-white in app/ or components/ (use bg-surface, which dark mode remaps)", () => {
    const offenders = [...sources("app"), ...sources("components")].filter((file) => /\bbg-white\b/.test(fs.readFileSync(path.join(root, file), "utf8")));
    expect(offenders).toEqual([]);
  });
});
