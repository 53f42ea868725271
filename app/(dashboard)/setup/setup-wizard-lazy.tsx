"use client";
import dynamic from "next/dynamic";

// The wizard (about 45 KB of compressed JavaScript) shows only until a workspace has a brand.
// The Overview's page renders the setup path in that case only, but a route ships every client
// component its server modules import, so without this split every Overview visit downloaded it.
export const SetupWizard = dynamic(() => import("./setup-wizard").then((m) => m.SetupWizard));
