// Light, dark or the system's choice (the default), kept in this browser's localStorage. The
// root layout inlines `themeScript`, which applies it before the body is parsed, so a dark page
// never flashes light; the toggle in the user menu and a change of the system's setting apply it
// again without a reload. Print stays light whatever the choice (app/globals.css).

export const THEME_CHOICES = ["light", "dark", "system"] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

const STORAGE_KEY = "beacon-theme";
const CHANGED = "beacon-theme-change";

/** Sets or clears `dark` on <html>. Self-contained: it is also inlined, as source, into the page's head. */
function applyStoredTheme(key: string) {
  let choice: string | null = null;
  try {
    choice = localStorage.getItem(key);
  } catch {
    // storage blocked (a privacy setting): follow the system
  }
  const dark = choice === "dark" || (choice !== "light" && matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.classList.toggle("dark", dark);
}

export const themeScript = `(${applyStoredTheme.toString()})(${JSON.stringify(STORAGE_KEY)})`;

export function readThemeChoice(): ThemeChoice {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    return THEME_CHOICES.find((c) => c === stored) ?? "system";
  } catch {
    return "system";
  }
}

export function chooseTheme(choice: ThemeChoice): void {
  try {
    if (choice === "system") localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, choice);
  } catch {
    // not persisted; still applied to this page below
  }
  applyStoredTheme(STORAGE_KEY);
  window.dispatchEvent(new Event(CHANGED));
}

/**
 * Re-applies the theme when the system's setting or another tab's choice changes, and calls
 * `onChange` after any change (for useSyncExternalStore). Returns the unsubscribe function.
 */
export function subscribeTheme(onChange: () => void = () => {}): () => void {
  const system = matchMedia("(prefers-color-scheme: dark)");
  const reapply = () => {
    applyStoredTheme(STORAGE_KEY);
    onChange();
  };
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY || event.key === null) reapply();
  };
  system.addEventListener("change", reapply);
  window.addEventListener("storage", onStorage);
  window.addEventListener(CHANGED, onChange);
  return () => {
    system.removeEventListener("change", reapply);
    window.removeEventListener("storage", onStorage);
    window.removeEventListener(CHANGED, onChange);
  };
}
