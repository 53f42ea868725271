import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  { ignores: [".next/**", "lib/generated/**", ".data/**", ".test-data/**", "next-env.d.ts", "bench/results/**"] },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // sonner loads on the first toast, not with every page (lib/browser/toast.ts).
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { paths: [{ name: "sonner", message: "Import toast from @/lib/browser/toast: sonner loads on the first toast.", allowTypeImports: true }] },
      ],
    },
  },
];
export default config;
