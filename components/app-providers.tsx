"use client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useEffect, useState, type ReactNode } from "react";
import { subscribeTheme } from "@/lib/browser/theme";
import { ContentMark } from "./content-mark";
import { Toaster } from "./toaster";

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: { staleTime: 5_000, retry: 1, refetchOnWindowFocus: true },
          mutations: { retry: false },
        },
      }),
  );
  // Follows the system's light/dark setting and choices made in other tabs.
  useEffect(() => subscribeTheme(), []);
  return (
    <QueryClientProvider client={client}>
      {children}
      <ContentMark />
      <Toaster />
    </QueryClientProvider>
  );
}
