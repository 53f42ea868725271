"use client";
import { useId, useSyncExternalStore } from "react";
import { chooseTheme, readThemeChoice, subscribeTheme, THEME_CHOICES, type ThemeChoice } from "@/lib/browser/theme";

const labels: Record<ThemeChoice, string> = { light: "Light", dark: "Dark", system: "System" };

/** Light, dark or the system's setting, for this browser. */
export function ThemeSwitch() {
  // The server cannot know the stored choice: it renders "system" and the browser corrects it.
  const name = useId();
  const choice = useSyncExternalStore(subscribeTheme, readThemeChoice, () => "system" as const);
  return (
    <div role="radiogroup" aria-label="Theme" className="mt-3 flex rounded-md bg-slate-100 p-0.5 text-xs font-medium">
      {THEME_CHOICES.map((c) => (
        <label
          key={c}
          className="relative flex min-h-11 flex-1 items-center justify-center rounded text-slate-600 has-checked:bg-surface has-checked:text-slate-900 has-checked:shadow-sm has-focus-visible:ring-2 has-focus-visible:ring-brand-500 md:min-h-7"
        >
          <input type="radio" name={name} value={c} checked={choice === c} onChange={() => chooseTheme(c)} className="absolute inset-0 cursor-pointer opacity-0" />
          {labels[c]}
        </label>
      ))}
    </div>
  );
}
