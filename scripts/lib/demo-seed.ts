// Whether the launcher creates the demo workspace, whose login (demo@beacon.local / beacon-demo)
// is printed in the README and therefore public: always for `npm run dev` (unless turned off),
// never for `npm start` unless asked for explicitly, and then with a warning.

export type LaunchMode = "dev" | "start" | "web" | "worker";

export type DemoSeedPlan = { seed: boolean; note: string | null; warning: string | null };

export function demoSeedPlan(mode: LaunchMode, setting: boolean | undefined): DemoSeedPlan {
  if (mode === "web" || mode === "worker") return { seed: false, note: null, warning: null };
  if (mode === "dev") {
    return setting === false ? { seed: false, note: "demo data: off (BEACON_SEED_DEMO=false)", warning: null } : { seed: true, note: null, warning: null };
  }
  if (setting !== true) return { seed: false, note: "no demo account (production; BEACON_SEED_DEMO=true creates one)", warning: null };
  return {
    seed: true,
    note: null,
    warning:
      "BEACON_SEED_DEMO=true in production: the demo login is public (it is in the README), so anyone who reaches this server can sign in to the demo workspace. Use it for demos only.",
  };
}
