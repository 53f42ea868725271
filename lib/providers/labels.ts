// How adapters and search modes are named in the UI (Settings → Providers, the Instance page).
import { ENGINES, isAdapterName, type AdapterName } from "@/lib/engines/engines";
import type { SearchMode } from "@/lib/providers/types";

export const adapterLabels = Object.fromEntries(ENGINES.map((e) => [e.name, e.label])) as Record<AdapterName, string>;

/** An adapter's label; a name this code does not know is shown as stored. */
export const adapterLabel = (name: string) => (isAdapterName(name) ? adapterLabels[name] : name);

export const searchModeLabels: Record<SearchMode, string> = {
  auto: "Model decides",
  on: "Always search",
  off: "Never search",
};
