import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "build/",
      "build-production/",
      "dist-check/",
      "node_modules/",
      ".wrangler/",
      "test-results/",
      "playwright-report/",
      "workers/worker-configuration.d.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": ["error", { allow: ["warn", "error", "log"] }],
      "no-restricted-syntax": [
        "error",
        {
          // zod's `z` (and its default export) is a namespace object: esbuild, which bundles the Worker, keeps all
          // of it, zod's 40-odd locales included (issue 29, 66 KiB gzip). A namespace import is shaken.
          selector:
            "ImportDeclaration[source.value=/^zod(\\/v4)?$/][importKind='value'] > :matches(ImportSpecifier[imported.name='z'][importKind!='type'], ImportDefaultSpecifier)",
          message: 'Write `import * as z from "zod"`: a named or default `z` brings every zod locale into the Worker (issue 29).',
        },
      ],
    },
  },
  {
    // Core stays pure: no I/O, no runtime or UI imports.
    files: ["core/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: ["cloudflare:*", "react", "react-dom", "@remix-run/*", "drizzle-orm", "drizzle-orm/*", "node:*", "../../schema/*", "../../workers/*"] },
      ],
      "no-restricted-globals": ["error", "fetch", "caches", "localStorage", "document", "window"],
    },
  },
);
