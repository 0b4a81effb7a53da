import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";

declare module "@remix-run/cloudflare" {
  interface Future {
    v3_singleFetch: true;
  }
}

// `STARTLINE_TARGET=production` (scripts/deploy.mjs) leaves the development-only routes out of the build and
// writes it beside the development one, which `npm start` and the tests keep using.
const production = process.env.STARTLINE_TARGET === "production";

export default defineConfig({
  plugins: [
    remix({
      serverModuleFormat: "esm",
      buildDirectory: production ? "build-production" : "build",
      ignoredRouteFiles: production ? ["**/dev.*"] : undefined,
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
  ],
  ssr: {
    resolve: { conditions: ["workerd", "worker", "browser"], externalConditions: ["workerd", "worker"] },
  },
  build: {
    target: "es2022",
    rollupOptions: {
      // Runtime modules of workerd, resolved by wrangler when it bundles the Worker.
      external: [/^cloudflare:/],
      onwarn(warning, warn) {
        // zod ships doc comments that Rollup reads as misplaced annotations; harmless and unfixable here.
        if (warning.code === "INVALID_ANNOTATION" && warning.id?.includes("node_modules/zod")) return;
        warn(warning);
      },
    },
  },
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
});
