// How adapters and search modes are named in the UI (Settings → Providers, the Instance page).
// Browser code: the engines' labels come from the server (lib/providers/registry.ts
// engineChoices), passed down by the page that needs them.
import type { SearchMode } from "@/lib/providers/types";

/** An engine as the browser shows it (serializable, so a server component can pass it down). */
export type EngineChoice = { name: string; label: string };

/** An adapter's label; a name this server does not know is shown as stored. */
export const adapterLabel = (engines: EngineChoice[], name: string) => engines.find((e) => e.name === name)?.label ?? name;

export const searchModeLabels: Record<SearchMode, string> = {
  auto: "Model decides",
  on: "Always search",
  off: "Never search",
};
