// What `npm run deploy` would ship: the production bundle and configuration, looked at from outside (Node).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { gzipSync } from "node:zlib";
import path from "node:path";
import { unstable_readConfig } from "wrangler";
import { beforeAll, describe, expect, it } from "vitest";
import { root, wranglerBin, wranglerEnv } from "../../scripts/wrangler-env.mjs";
import { WAITLIST_CRON } from "../../core/registration/waitlist";

const out = mkdtempSync(path.join(tmpdir(), "startline-bundles-"));
const bundle = (name: string) => {
  const dir = path.join(out, name);
  const file = readdirSync(dir).find((f) => f.endsWith(".js"));
  return readFileSync(path.join(dir, file!), "utf8");
};

function run(command: string, args: string[]) {
  const done = spawnSync(command, args, { cwd: root, env: wranglerEnv(), encoding: "utf8" });
  expect(done.status, `${command} ${args.join(" ")}\n${done.stdout}\n${done.stderr}`).toBe(0);
  return `${done.stdout}\n${done.stderr}`;
}

/**
 * The Worker's size budget, gzip: what a cold start loads. Issue 29 asks for 400 KiB; the bundle was 669 KiB
 * (minified, our own code once) and is 557 since zod's locales (66) and react-dom's browser renderer (45) left
 * it. Issue 25's administration (sixteen entity classes, the generated admin pages, the entity service and its
 * history) brought it to 579; moving the browser half of passkeys into a `.client` module took 2 back, to 577.
 * Checking passkeys with @oslojs/webauthn and WebCrypto instead of @simplewebauthn/server and its ASN.1, CBOR
 * and X.509 stack (decision 0037) took it from 578.5 to 493.7. What each part adds to the gzip (before that
 * change): the pages' server build 126, core/ 64, Remix and its router 61, workers/ 47, the Stripe SDK 34, zod
 * 32, durable/ 22, React DOM's server renderers 22, drizzle 20, schema/ 16. The same day's work (results CSV,
 * PDF writer and print, the racer page, TV mode, category groups, invitations on every target, memberships)
 * brought it to 516.6. Issue 24's waitlists, changes and transfers after checkout with their card payments, the
 * receipt PDF and Stripe Connect onboarding (with their pages) brought it to 536.4; of the minified bundle the
 * pages' server build is 589 KiB, the Stripe SDK 248, zod 109, workers/services 104. Issue 23's paged results
 * (decision 0044: the room's ranking and windows, the edge cache, the print page, the PDF deflate) brought it
 * to 545.7, and its announcer screen (decision 0045: precall and leader rules, the room's view, the page and
 * its server render) to 551.8. Issue 27's points series (decision 0048: scoring, formulas and standings in
 * core/series, the config rules, standings on read, the series pages, the points file) brought it to 560.4.
 * Issue 26's event pages with their calendars (0046), custom domains with the Cloudflare adapter (0047) and
 * newsletters with their queue and unsubscribe pages (0049), merged with the series, to 581.6. Issue 27's passes
 * with their QR codes and check-in (0050), shipping depots (0051), validation systems and activities (0052), and
 * issue 26's site pages, menus, fonts and edge cache (0053) to 615.2. Issue 27's ranking lists and seeding by
 * them (0054) and serverboxes with their pairing (0055), issue 26's club event pages, uploads and home blocks
 * (0056) and newsletters to race entrants, issue 25's membership upkeep (0057), issue 24's race links by option,
 * racer field mapping and tax number (0058), and patch frames (0059) brought it to 650.6. Issue 27's
 * serverbox package for the box (0060), issue 24's priced changes and limited adds after checkout with the QST
 * number (0061), issue 26's shared block editor, upload sweep and audience filters (0062), member cards that
 * follow their membership with their mail (0063), and the series' stored entries and public ranking lists (0064)
 * to 663.2. GoChips (0068), waitlists from the change form (0066), the serverbox's keypad and range forwarding
 * (0067), the shared queued-mail helper (0069) and the spectator shards' catch-up history (0071) to 677.0.
 * GoChips back at the depot (0077: More chips, bibs that follow, returns, check in and found) and offers holding
 * every capped choice with paid lines kept at their price (0078) to 685.5; a shortening of their messages to stay
 * under 685 was undone, since words a depot user reads are not where the Worker's size should come from.
 * Decision 0070 measures what a back-office split would buy (the public half alone is 484.9). Leaving function
 * names to the minifier (keep_names = false, decision 0082: the uploaded source map names them in stack traces)
 * took it from 687.4 to 644.3. The sessions since took it to 653.1; a marathon's start list a page at a time,
 * with its search and edge copy (0098), is 1.1 KiB of that.
 * The budget holds what is reached plus 8 KiB and no more, so growth is seen; the gap to 400 is in the
 * closing note.
 */
const WORKER_BUDGET_KIB = 661;

/** Words of zod's other locales (German, and the locale index's keys): none is in a bundle with English alone. */
const zodLocaleTraces = ["Ung\\xFCltig", "Ungültig", "zhTW:", "ptBR:"];

/** Traces of the development helpers: the demo mounts and the captured-mail page. */
const devTraces = ["handleDevDemoRace", "handleDevDemoSprint", '"routes/dev+/mail"'];

describe("the production build", () => {
  let warnings = "";
  beforeAll(() => {
    if (!existsSync(path.join(root, "build/server/index.js"))) run(path.join(root, "node_modules/.bin/remix"), ["vite:build", "--logLevel", "warn"]);
    run(wranglerBin, ["deploy", "--dry-run", "--outdir", path.join(out, "development")]);
    warnings = run("node", ["scripts/deploy.mjs", "--dry-run", "--outdir", path.join(out, "production")]);
  }, 240_000);

  it("has no development route or helper, which the development bundle has", () => {
    const development = bundle("development");
    const production = bundle("production");
    for (const trace of devTraces) {
      expect(development, trace).toContain(trace);
      expect(production, trace).not.toContain(trace);
    }
    expect(warnings).not.toMatch(/Unexpected fields/);
  });

  it(`stays within the Worker's size budget (${WORKER_BUDGET_KIB} KiB gzip), minified, with a source map that names its functions`, () => {
    const production = bundle("production");
    const development = bundle("development");
    const kib = gzipSync(production).length / 1024;
    expect(kib, `the production Worker is ${kib.toFixed(1)} KiB gzip, over its ${WORKER_BUDGET_KIB} KiB budget`).toBeLessThan(WORKER_BUDGET_KIB);
    expect(production.length).toBeLessThan(development.length * 0.6);
    // No keep_names helper wraps every function (it cost 43 KiB and a call per closure made); the uploaded
    // source map gives the dashboard's stack traces their names back.
    expect(production).not.toContain('"handleTimingApi"');
    const map = JSON.parse(readFileSync(path.join(out, "production", "production.js.map"), "utf8")) as { names: string[] };
    expect(map.names).toContain("handleTimingApi");
  });

  it("holds zod's English messages and none of its other locales (a namespace import, eslint.config.js)", () => {
    const production = bundle("production");
    expect(production).toContain("Too small: expected");
    for (const trace of zodLocaleTraces) expect(production, trace).not.toContain(trace);
  });

  it("holds one copy of our own code: the pages' server build imports the shared layers instead of copying them", () => {
    const development = bundle("development");
    // A second copy would be renamed by the bundler (resolveTenant2), so count every numbered variant.
    for (const name of ["parseTimeOfDay", "fieldErrorsOf", "can"]) {
      expect(development.match(new RegExp(`function ${name}\\d*\\(`, "g"))?.length, name).toBe(1);
    }
  });

  it("runs the waitlist sweep's cron in development and production, the one the Worker answers to", () => {
    for (const env of [undefined, "production"]) {
      const config = unstable_readConfig({ config: path.join(root, "wrangler.toml"), env });
      expect(config.triggers.crons).toContain(WAITLIST_CRON);
    }
  });

  it("sends mail for real, over https, with no secret or fake in its configuration, and every binding of development", () => {
    const production = unstable_readConfig({ config: path.join(root, "wrangler.toml"), env: "production" });
    const development = unstable_readConfig({ config: path.join(root, "wrangler.toml") });
    expect(production.main).toMatch(/workers\/production\.ts$/);
    expect(production.vars).toMatchObject({ MAIL_MODE: "send", ENVIRONMENT: "production", PUBLIC_SCHEME: "https", PUBLIC_PORT: "" });
    for (const secret of [
      "AUTH_SECRET",
      "STRIPE_SECRET_KEY",
      "STRIPE_WEBHOOK_SECRET",
      "STRIPE_API_BASE",
      "CLOUDFLARE_API_TOKEN",
      "CLOUDFLARE_ZONE_ID",
      "CLOUDFLARE_API_BASE",
    ])
      expect(production.vars).not.toHaveProperty(secret);
    const names = (config: typeof production) => ({
      d1: config.d1_databases.map((d: { binding: string }) => d.binding),
      durableObjects: config.durable_objects.bindings.map((b: { name: string; class_name: string }) => `${b.name}:${b.class_name}`),
      r2: config.r2_buckets.map((b: { binding: string }) => b.binding),
      queues: [
        ...(config.queues.producers ?? []).map((q: { binding: string }) => q.binding),
        ...(config.queues.consumers ?? []).map((q: { queue: string }) => q.queue),
      ],
      mail: config.send_email.map((m: { name: string }) => m.name),
      assets: config.assets?.binding,
    });
    expect(names(production)).toEqual(names(development));
    expect(production.assets?.directory).toMatch(/build-production\/client$/);
  });
});
