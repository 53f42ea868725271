import type { Metadata } from "next";

export const metadata: Metadata = { title: "Link not valid", robots: { index: false, follow: false } };

/** Every share link that does not open a report ends here, whatever the reason. */
export default function InvalidShareLink() {
  return (
    <main className="mx-auto max-w-lg px-6 py-24 text-center">
      <h1 className="text-xl font-semibold text-slate-900">This link is not valid or has expired</h1>
      <p className="mt-2 text-sm text-slate-600">Ask the person who shared it for a new link.</p>
    </main>
  );
}
