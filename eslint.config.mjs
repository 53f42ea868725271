import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

// sonner loads on the first toast, not with every page (lib/browser/toast.ts).
const sonner = { name: "sonner", message: "Import toast from @/lib/browser/toast: sonner loads on the first toast.", allowTypeImports: true };
// Links prefetch on intent, not in view (components/ui/link.tsx).
const nextLink = { name: "next/link", message: "Import { Link } from @/components/ui/link: it prefetches on intent, not on view.", allowTypeImports: true };

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  { ignores: [".next/**", "lib/generated/**", ".data/**", ".test-data/**", "next-env.d.ts", "bench/results/**"] },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { paths: [sonner, nextLink] },
      ],
    },
  },
  // The one home of next/link.
  { files: ["components/ui/link.tsx"], rules: { "@typescript-eslint/no-restricted-imports": ["error", { paths: [sonner] }] } },
];
export default config;
