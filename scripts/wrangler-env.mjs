// Environment for every wrangler call made by the project's scripts: nothing fetched from the internet,
// no metrics, and wrangler's own config kept inside the project instead of the home folder (stack.md).
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export function wranglerEnv(extra = {}) {
  return {
    ...process.env,
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    WRANGLER_SEND_METRICS: "false",
    XDG_CONFIG_HOME: path.join(root, ".wrangler", "config"),
    NO_UPDATE_NOTIFIER: "1",
    ...extra,
  };
}

export const wranglerBin = path.join(root, "node_modules", ".bin", "wrangler");

/** `wrangler dev` on 127.0.0.1:<port>, local only, with `--var NAME:value` for each of `vars`, then `extra`. */
export function wranglerDevArgs(port, vars, extra = []) {
  return ["dev", "--ip", "127.0.0.1", "--port", port, "--local", ...vars.flatMap((v) => ["--var", v]), "--show-interactive-dev-session=false", ...extra];
}
