// `npm test`: every check in order: typecheck, lint, formatting, layers, build, unit tests (Node), integration tests (workerd),
// browser tests (Debian's Chromium against the built Worker). Ends with one line of counts.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { root, wranglerEnv } from "./wrangler-env.mjs";

const bin = (name) => path.join(root, "node_modules", ".bin", name);
const results = path.join(root, "test-results");
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

function run(label, command, args, env = wranglerEnv()) {
  console.log(`\n▶ ${label}`);
  const started = Date.now();
  const { status } = spawnSync(command, args, { cwd: root, stdio: "inherit", env });
  console.log(`${status === 0 ? "✔" : "✘"} ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return status === 0;
}

function ensureChromium() {
  if (existsSync(chromium)) return true;
  console.log(`\n▶ Installing Debian's Chromium (${chromium} is missing)`);
  const asRoot = process.getuid?.() === 0 ? [] : ["sudo"];
  const apt = (args) =>
    spawnSync(asRoot[0] ?? "apt-get", asRoot.length ? ["apt-get", ...args] : args, {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  apt(["update"]);
  apt(["install", "-y", "--no-install-recommends", "chromium"]);
  return existsSync(chromium);
}

const firstLine = (text) => (text ?? "").split("\n")[0].slice(0, 300);

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

function collectPlaywrightFailures(suites) {
  for (const suite of suites) {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === "flaky") flakyTests.push(`${spec.file}:${spec.line} › ${spec.title} [${test.projectName}]`);
        if (test.status !== "unexpected") continue;
        const error = test.results?.at(-1)?.error?.message;
        failedTests.push(`${spec.file}:${spec.line} › ${spec.title} [${test.projectName}]: ${firstLine(error)}`);
      }
    }
    collectPlaywrightFailures(suite.suites ?? []);
  }
}

/** The last 40 warnings and errors the Worker logged under the browser tests (CI keeps only the output's tail). */
function serverErrorsOf(file) {
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [`(no server log at ${path.relative(root, file)})`];
  }
  const escape = String.fromCharCode(27);
  const lines = text
    .split(escape)
    .join("")
    .replace(/\[[0-9;]*m/g, "")
    .split("\n");
  // wrangler's note that cron triggers do not fire locally is printed at every start: not a cause.
  const flagged = lines.filter(
    (line) =>
      /error|fail|retry|dead letter|exception|uncaught|warn|refused|timed out/i.test(line) && !/Scheduled Workers are not automatically triggered/.test(line),
  );
  return flagged.slice(-40).map((line) => `  ${line.slice(0, 240)}`);
}

let serverErrors = [];

rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

const counts = { passed: 0, failed: 0 };
const failures = [];
// The names of failed tests are printed again at the end: CI keeps only the tail of the output.
const failedTests = [];
// Browser tests that passed only on their retry (playwright.config.ts): printed, so a flake is seen and chased.
const flakyTests = [];
const check = (label, ok) => {
  if (!ok) failures.push(label);
};
const addVitest = (label, ok, file) => {
  const report = readJson(file);
  if (!report) {
    failures.push(`${label} (no report)`);
    counts.failed += 1;
    return;
  }
  counts.passed += report.numPassedTests;
  counts.failed += report.numFailedTests;
  for (const suite of report.testResults ?? []) {
    const file = path.relative(root, suite.name ?? "");
    for (const test of suite.assertionResults ?? []) {
      if (test.status === "failed") failedTests.push(`${file} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    }
    if (suite.status === "failed" && !(suite.assertionResults ?? []).some((test) => test.status === "failed")) {
      failedTests.push(`${file}: ${firstLine(suite.message)}`);
    }
  }
  if (!ok || report.numFailedTests > 0 || report.numTotalTests === 0) failures.push(label);
};

check("typecheck", run("Typecheck", bin("tsc"), ["--noEmit"]));
check("lint", run("Lint", bin("eslint"), [".", "--max-warnings=0"]));
check("format", run("Formatting (Prettier)", bin("prettier"), ["--check", "--log-level", "warn", "."]));
check("layers", run("Layers and import cycles", process.execPath, [path.join(root, "scripts", "check-layers.mjs")]));
const built = run("Build", bin("remix"), ["vite:build", "--logLevel", "warn"]);
check("build", built);

const unitReport = path.join(results, "unit.json");
addVitest(
  "unit tests",
  run("Unit tests", bin("vitest"), ["run", "--config", "vitest.unit.config.ts", "--reporter=default", "--reporter=json", `--outputFile.json=${unitReport}`]),
  unitReport,
);

if (built) {
  const workersReport = path.join(results, "workers.json");
  addVitest(
    "integration tests",
    run("Integration tests (workerd)", bin("vitest"), [
      "run",
      "--config",
      "vitest.workers.config.ts",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${workersReport}`,
    ]),
    workersReport,
  );

  if (ensureChromium()) {
    const ok = run("Browser tests (Chromium)", bin("playwright"), ["test"], wranglerEnv({ CHROMIUM_PATH: chromium }));
    const report = readJson(path.join(results, "e2e.json"));
    const stats = report?.stats;
    if (stats) {
      counts.passed += stats.expected + stats.flaky;
      counts.failed += stats.unexpected;
    }
    collectPlaywrightFailures(report?.suites ?? []);
    if (!ok || !stats || stats.unexpected > 0 || stats.expected === 0) {
      failures.push("browser tests");
      serverErrors = serverErrorsOf(path.resolve(root, process.env.E2E_STATE_DIR ?? ".wrangler/e2e-state", "server.log"));
    }
  } else {
    failures.push("browser tests (Chromium could not be installed)");
  }
}

console.log("");
if (serverErrors.length) console.log(`The browser tests' server logged (last ${serverErrors.length} warnings and errors):\n${serverErrors.join("\n")}\n`);
for (const line of flakyTests) console.log(`⚠ flaky (passed on its retry): ${line}`);
for (const line of failedTests) console.log(`✘ ${line}`);
if (failures.length) console.log(`Failed: ${failures.join(", ")}`);
console.log(`tests: ${counts.passed} passed, ${counts.failed} failed`);
process.exit(failures.length ? 1 : 0);
