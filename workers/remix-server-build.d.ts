// `remix-server-build` is an alias (wrangler.toml [alias], vitest config) for the Remix server bundle in build/server.
declare module "remix-server-build" {
  import type { ServerBuild } from "@remix-run/cloudflare";
  export const mode: ServerBuild["mode"];
  export const entry: ServerBuild["entry"];
  export const routes: ServerBuild["routes"];
  export const assets: ServerBuild["assets"];
  export const basename: ServerBuild["basename"];
  export const publicPath: ServerBuild["publicPath"];
  export const assetsBuildDirectory: ServerBuild["assetsBuildDirectory"];
  export const future: ServerBuild["future"];
  export const isSpaMode: ServerBuild["isSpaMode"];
}

// The production build (STARTLINE_TARGET=production, build-production/server), for workers/production.ts only.
declare module "remix-production-build" {
  import type { ServerBuild } from "@remix-run/cloudflare";
  export const mode: ServerBuild["mode"];
  export const entry: ServerBuild["entry"];
  export const routes: ServerBuild["routes"];
  export const assets: ServerBuild["assets"];
  export const basename: ServerBuild["basename"];
  export const publicPath: ServerBuild["publicPath"];
  export const assetsBuildDirectory: ServerBuild["assetsBuildDirectory"];
  export const future: ServerBuild["future"];
  export const isSpaMode: ServerBuild["isSpaMode"];
}
