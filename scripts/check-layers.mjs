// The layering of docs/decisions and design/architecture.md, checked on every `npm test` (lint step):
// core ← schema ← tenants ← workers/durable ← app, with no import cycle anywhere and no arrow from durable/
// to workers/. Prints each broken rule with the importing file and exits 1 when there is one.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const layers = ["core", "schema", "tenants", "workers", "durable", "app", "sdk", "serverbox"];
/** What each top folder may import from (besides itself and packages). */
const allowed = {
  core: [],
  schema: ["core"],
  tenants: ["core", "schema"],
  durable: ["core", "schema", "tenants"],
  workers: ["core", "schema", "tenants", "durable"],
  app: ["core", "schema", "tenants", "workers", "durable", "sdk"],
  sdk: ["core", "schema"],
  // The local timing server (decision 0060) runs the race room's pure rules and results in Node, never the Worker.
  serverbox: ["core", "schema", "durable"],
};
// The Worker imports the Remix build (an alias, not a path) and the page layer imports Worker services: both
// directions between workers/ and app/ exist by design, so only files, not folders, may not form a cycle.

function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (/\.(ts|tsx|mjs)$/.test(name) && !/\.(test|spec)\.tsx?$/.test(name) && !name.endsWith(".d.ts")) out.push(full);
  }
  return out;
}

function resolveImport(from, specifier) {
  const base = path.resolve(path.dirname(from), specifier.replace(/\?.*$/, ""));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx"), base.replace(/\.js$/, ".ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

const importPattern = /(?:^|\n)\s*(?:import|export)\s+(?!type\b)(?:[^"'`;]*?\sfrom\s+)?["']([^"']+)["']/g;
const files = layers.filter((l) => existsSync(path.join(root, l))).flatMap((l) => sourceFiles(path.join(root, l)));
const graph = new Map();
const problems = [];
for (const file of files) {
  const text = readFileSync(file, "utf8");
  const targets = [];
  for (const match of text.matchAll(importPattern)) {
    const specifier = match[1];
    if (!specifier.startsWith(".")) continue;
    const target = resolveImport(file, specifier);
    if (!target) continue;
    targets.push(target);
    const fromLayer = path.relative(root, file).split(path.sep)[0];
    const toLayer = path.relative(root, target).split(path.sep)[0];
    if (fromLayer !== toLayer && layers.includes(toLayer) && !allowed[fromLayer]?.includes(toLayer)) {
      problems.push(`layer: ${path.relative(root, file)} imports ${path.relative(root, target)} (${fromLayer}/ may not import ${toLayer}/)`);
    }
  }
  graph.set(file, targets);
}

// Tarjan's strongly connected components: every component of more than one file is a cycle.
let index = 0;
const stack = [];
const state = new Map();
function visit(node) {
  state.set(node, { index, low: index, onStack: true });
  index += 1;
  stack.push(node);
  for (const next of graph.get(node) ?? []) {
    if (!graph.has(next)) continue;
    if (!state.has(next)) {
      visit(next);
      state.get(node).low = Math.min(state.get(node).low, state.get(next).low);
    } else if (state.get(next).onStack) state.get(node).low = Math.min(state.get(node).low, state.get(next).index);
  }
  if (state.get(node).low === state.get(node).index) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      state.get(member).onStack = false;
      component.push(member);
    } while (member !== node);
    if (component.length > 1)
      problems.push(
        `cycle: ${component
          .map((f) => path.relative(root, f))
          .sort()
          .join(" ↔ ")}`,
      );
  }
}
for (const file of graph.keys()) if (!state.has(file)) visit(file);

if (problems.length) {
  console.error(problems.join("\n"));
  console.error(`\n${problems.length} layering problem(s); see scripts/check-layers.mjs for the rules.`);
  process.exit(1);
}
console.log(`Layers and cycles: ${files.length} files, no problem.`);
