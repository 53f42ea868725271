import type { Metadata } from "next";
import type { ReactNode } from "react";
import { Providers } from "@/components/app-providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Beacon", template: "%s · Beacon" },
  description: "How AI assistants talk about your brand",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
