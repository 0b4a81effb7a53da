import path from "node:path";
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig, type Plugin } from "vite";
import { flatRoutes } from "remix-flat-routes";

declare module "@remix-run/cloudflare" {
  interface Future {
    v3_singleFetch: true;
  }
}

// `STARTLINE_TARGET=production` (scripts/deploy.mjs) leaves the development-only routes out of the build and
// writes it beside the development one, which `npm start` and the tests keep using.
const production = process.env.STARTLINE_TARGET === "production";

const root = path.dirname(new URL(import.meta.url).pathname);
/** The layers below the pages: the Worker bundles them from source for itself, so the pages' server build must not copy them. */
const SERVER_BUILD_DIR = path.join(root, "build", "server");
const SHARED_LAYERS = ["core", "schema", "tenants", "workers", "durable"].map((dir) => path.join(root, dir) + path.sep);

/**
 * In the server build, imports of the shared layers stay imports (written relative to build/server/), and
 * wrangler's bundle of the Worker resolves them to the same source files the Worker itself imports: one copy
 * of our code in the Worker instead of two (issue 29 measured 550 KiB repeated). The client build bundles them.
 */
function sharedLayersStayShared(): Plugin {
  let building = false;
  return {
    name: "startline:shared-layers-external",
    enforce: "pre",
    configResolved(config) {
      building = config.command === "build";
    },
    resolveId(source, importer, options) {
      if (!building || !options.ssr || !importer || !source.startsWith(".")) return null;
      const target = path.resolve(path.dirname(importer), source);
      if (!SHARED_LAYERS.some((dir) => target.startsWith(dir))) return null;
      // Written as seen from the server build's folder (build/server/ and build-production/server/ alike).
      return { id: path.relative(SERVER_BUILD_DIR, target), external: true };
    },
  };
}

export default defineConfig({
  plugins: [
    sharedLayersStayShared(),
    remix({
      serverModuleFormat: "esm",
      buildDirectory: production ? "build-production" : "build",
      // Routes live in one folder per area (app/routes/race+/…), read by remix-flat-routes (decision 0029).
      ignoredRouteFiles: ["**/*"],
      routes: async (defineRoutes) => flatRoutes("routes", defineRoutes, { ignoredRouteFiles: production ? ["**/dev+/**"] : [] }),
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
