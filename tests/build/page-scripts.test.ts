// The JavaScript a browser loads for each public page, read from the Remix client build's manifest (Node).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { matchRoutes } from "@remix-run/react";
import { beforeAll, describe, expect, it } from "vitest";
import { root, wranglerEnv } from "../../scripts/wrangler-env.mjs";

/**
 * Each public page's budget, KiB gzip: every script the page loads (the client entry, then each matched
 * route's module and the chunks it imports), each gzipped alone as it is served. Issue 29 asks for under
 * 100 on every public page; React, React DOM and Remix's runtime are 82 of them on each. Reached: home 87.7,
 * login 91.9, start list 86.8, results 96.3 (104.9 while zod/mini checked the live socket's frames; now
 * schema/wire/race-socket-read.ts does), registration form 107.6 (the form's fields, prices and checks, run
 * in the browser; 111.2 once fields could name a validation system and the root drew a site's menu and footer), events 87.0 and an event 87.6 (issue 26: no script of their own), a pass card (issue 27: a Print button only). The pages under 100 keep
 * 100; the one over it holds what is reached plus 3%, so growth is seen; the gap to 100 is in the issue's
 * closing note.
 */
const PAGES = [
  { page: "home", url: "/", route: "routes/_index", budgetKib: 100 },
  { page: "login", url: "/login", route: "routes/login+/_index", budgetKib: 100 },
  { page: "results", url: "/races/r1", route: "routes/races+/$raceId", budgetKib: 100 },
  { page: "start list", url: "/races/r1/startlist", route: "routes/races+/$raceId_.startlist", budgetKib: 100 },
  { page: "heats", url: "/races/r1/heats", route: "routes/races+/$raceId_.heats", budgetKib: 100 },
  { page: "racer", url: "/races/r1/racers/x1", route: "routes/races+/$raceId_.racers.$racerId", budgetKib: 100 },
  { page: "series standings", url: "/series/s1", route: "routes/series+/$series", budgetKib: 100 },
  { page: "registration form", url: "/register/g1", route: "routes/register+/$registrationId._index", budgetKib: 115 },
  { page: "events", url: "/events", route: "routes/events+/_index", budgetKib: 100 },
  { page: "event", url: "/events/winter-loppet", route: "routes/events+/$path", budgetKib: 100 },
  { page: "pass card", url: "/passes/p1", route: "routes/passes+/$id", budgetKib: 100 },
];

type RouteObject = Parameters<typeof matchRoutes>[0][number];

interface ManifestRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  module: string;
  imports?: string[];
}
interface RemixManifest {
  entry: { module: string; imports: string[] };
  routes: Record<string, ManifestRoute>;
}

const client = path.join(root, "build", "client");
let manifest: RemixManifest;

function routeTree(parentId: string | undefined): RouteObject[] {
  return Object.values(manifest.routes)
    .filter((r) => r.parentId === parentId)
    .map(
      (r): RouteObject =>
        r.index ? { id: r.id, path: r.path, index: true } : { id: r.id, path: r.path, caseSensitive: r.caseSensitive, children: routeTree(r.id) },
    );
}

/** The scripts a page loads, in the order Remix lists them, with each one's gzip size. */
function pageScripts(url: string): { routes: string[]; files: { file: string; gzip: number }[] } {
  const matches = matchRoutes(routeTree(undefined), url) ?? [];
  const routes = matches.map((m) => m.route.id!);
  const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
  for (const id of routes) {
    const route = manifest.routes[id]!;
    files.add(route.module);
    for (const file of route.imports ?? []) files.add(file);
  }
  return { routes, files: [...files].map((file) => ({ file, gzip: gzipSync(readFileSync(path.join(client, file))).length })) };
}

const kib = (bytes: number) => bytes / 1024;

describe("the public pages' JavaScript", () => {
  beforeAll(() => {
    if (!existsSync(path.join(client, "assets"))) {
      // As scripts/deploy.mjs does: a test runner's NODE_ENV would build React's development files.
      const built = spawnSync(path.join(root, "node_modules/.bin/remix"), ["vite:build", "--logLevel", "warn"], {
        cwd: root,
        env: wranglerEnv({ NODE_ENV: "production" }),
        encoding: "utf8",
      });
      expect(built.status, `${built.stdout}\n${built.stderr}`).toBe(0);
    }
    const found = readdirSync(path.join(client, "assets")).filter((f) => /^manifest-[\w-]+\.js$/.test(f));
    expect(found, "one Remix client manifest").toHaveLength(1);
    const text = readFileSync(path.join(client, "assets", found[0]!), "utf8");
    manifest = JSON.parse(text.replace(/^window\.__remixManifest=/, "").replace(/;\s*$/, "")) as RemixManifest;
  }, 240_000);

  it.each(PAGES)("$page ($url) stays within $budgetKib KiB gzip", ({ page, url, route, budgetKib }) => {
    const { routes, files } = pageScripts(url);
    // The page is the route it is meant to be, not a catch-all that would measure something else.
    expect(routes.at(-1), `${url} matches ${routes.join(" > ")}`).toBe(route);
    const total = kib(files.reduce((sum, f) => sum + f.gzip, 0));
    const detail = [...files]
      .sort((a, b) => b.gzip - a.gzip)
      .map((f) => `  ${kib(f.gzip).toFixed(1).padStart(6)} KiB ${f.file}`)
      .join("\n");
    console.log(`${page} (${url}): ${total.toFixed(1)} KiB gzip of JavaScript in ${files.length} files`);
    expect(total, `${page} (${url}) loads ${total.toFixed(1)} KiB gzip of JavaScript, over its ${budgetKib} KiB budget:\n${detail}`).toBeLessThanOrEqual(
      budgetKib,
    );
  });
});
