import type { ReactNode } from "react";

// Reads the session on every request; never prerendered.
export const dynamic = "force-dynamic";

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className="flex min-h-full items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <div className="mb-8 text-center">
          <span className="text-2xl font-bold tracking-tight text-brand-700">◉ Beacon</span>
          <p className="mt-1 text-sm text-slate-500">How AI assistants talk about your brand</p>
        </div>
        {children}
      </div>
    </main>
  );
}
