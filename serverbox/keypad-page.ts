/**
 * The web keypad's pages on the box's network listener: pairing (the code from the box's own page), the
 * choice of race, and the keypad itself, which is the platform's keypad component bundled once per run from
 * app/webclient/box-keypad.tsx (decision 0084).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MAX_NAME } from "./webclients";
import type { KeypadSetup } from "../schema/wire/keypad-setup";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const ENTRY = path.join(root, "app/webclient/box-keypad.tsx");

let bundle: Promise<string> | null = null;

/** The keypad's script, built on first request and kept; a failed build is tried again on the next. */
export function keypadScript(): Promise<string> {
  bundle ??= (async () => {
    // Loaded here, not at the top: a box that never opens its network listener never needs the bundler.
    const { build } = await import("esbuild");
    const result = await build({
      entryPoints: [ENTRY],
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      jsx: "automatic",
      define: { "process.env.NODE_ENV": '"production"' },
      write: false,
      logLevel: "silent",
    });
    return result.outputFiles[0]!.text;
  })().catch((error: unknown) => {
    bundle = null;
    throw error;
  });
  return bundle;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// The class names the platform's keypad uses from app.css, for a page without it; sized for gloved hands.
const STYLE = `:root{--radius:.5rem}body{font-family:system-ui,sans-serif;margin:1rem;max-width:34rem}
button{font:inherit;padding:.5rem 1rem;border-radius:var(--radius);border:1px solid #1d4ed8;background:#1d4ed8;color:#fff;min-height:3rem}
button.secondary{background:#fff;color:#1d4ed8}input,select{font:inherit;font-size:1.4rem;padding:.5rem;width:100%;box-sizing:border-box}
label{display:block;font-weight:600;margin-top:.75rem}.hint{color:#4b5563;font-size:.9rem}.form-error{color:#b91c1c;font-weight:600}
.form-notice{color:#166534}.empty-state{color:#4b5563}ul.races{list-style:none;padding:0;display:grid;gap:.5rem}ul.races a{display:block;padding:.8rem;border:1px solid #d1d5db;border-radius:var(--radius);font-size:1.2rem}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

/** The pairing form: the code shown on the box's page and a name for this keypad. */
export function pairingPage(boxName: string, error: string | null, name = ""): string {
  return page(
    "Pair this keypad",
    `<h1>Pair this keypad with ${escapeHtml(boxName)}</h1>
<p>Type the code shown on the serverbox's own page (on the timing laptop, under Web keypads).</p>
${error ? `<p class="form-error" role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="/keypad/pair">
<label for="pair-code">Code</label><input id="pair-code" name="code" inputmode="numeric" autocomplete="one-time-code" required>
<label for="pair-name">This keypad's name</label><input id="pair-name" name="name" maxlength="${MAX_NAME}" required value="${escapeHtml(name)}" placeholder="Finish line phone">
<p><button type="submit">Pair</button></p></form>`,
  );
}

/** Which race to key, when the box times more than one. */
export function racesPage(races: { id: string; name: string }[]): string {
  if (races.length === 0)
    return page("Keypad", `<h1>Keypad</h1><p class="empty-state">The serverbox is not timing a race yet. Take one on its page, then reload this one.</p>`);
  const links = races.map((r) => `<li><a href="/keypad?race=${encodeURIComponent(r.id)}">${escapeHtml(r.name)}</a></li>`).join("");
  return page("Keypad", `<h1>Keypad</h1><p>Choose the race to key.</p><ul class="races">${links}</ul>`);
}

/** The keypad for one race: the setup as JSON for the script, which renders the platform's keypad. */
export function keypadPage(setup: KeypadSetup, others: number): string {
  // "</" cannot end the script element early inside JSON: a race named "</script>" stays text.
  const json = JSON.stringify(setup).replace(/</g, "\\u003c");
  return page(
    `Keypad · ${setup.raceName}`,
    `<h1>${escapeHtml(setup.raceName)}</h1>${others > 0 ? `<p><a href="/keypad">Another race</a></p>` : ""}
<div id="keypad"><p class="empty-state">Loading the keypad…</p></div>
<script type="application/json" id="keypad-setup">${json}</script><script type="module" src="/keypad.js"></script>`,
  );
}
