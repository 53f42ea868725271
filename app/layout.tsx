import type { Metadata } from "next";
import type { ReactNode } from "react";
import { Providers } from "@/components/app-providers";
import { themeScript } from "@/lib/browser/theme";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Beacon", template: "%s · Beacon" },
  description: "How AI assistants talk about your brand",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    // The theme script sets the `dark` class before hydration, which React would report as a mismatch.
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* Inline, in the head: applied before the body is parsed, so a dark page never flashes light. */}
        <script dangerouslySetInnerHTML={{ __html: themeScript }} />
      </head>
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
