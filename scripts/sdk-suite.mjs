// supertokens-node's own test files against authsvc's CDI (docs/supertokens-core.md, "The SDK's
// own test suite"): the measurement of issue 52, not part of CI (it needs the SDK's repository).
//
//   node scripts/sdk-suite.mjs <supertokens-node checkout, its dev dependencies installed> [test files or folders…]
//     [--json out.json] [--jobs N] [--timeout ms] [--stream out.jsonl] [--no-build]
//
// Starts `authsvc serve` in the CDI's test mode (AUTHSVC_CDI_TEST_MODE=1: apps made per test, each
// its own empty SQLite database) on a throwaway database, points the SDK's test utilities at it
// (test/utils.js: `getCoreUrl`, and `getAppIdFromConnectionURI`, which would cut a UUID app id at
// its first dash), runs the files with mocha, restores test/utils.js and prints the pass and fail
// counts, then each failure with its first line. The files run in N processes at once (--jobs, 4 by default; 1 runs them in one). Default files: test/emailpassword, test/session,
// test/session*.test.js, test/thirdparty, test/jwt.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const flag = (name) => { const i = args.indexOf(name); if (i < 0) return undefined; const v = args[i + 1]; args.splice(i, 2); return v; };
const jsonOut = flag("--json");
const jobs = Number(flag("--jobs") ?? "4");
const timeout = flag("--timeout") ?? "40000";
const stream = flag("--stream");
const noBuild = args.includes("--no-build") ? (args.splice(args.indexOf("--no-build"), 1), true) : false;
const [sdkArg, ...only] = args;
if (!sdkArg) {
  console.error("usage: node scripts/sdk-suite.mjs <supertokens-node checkout> [test files or folders…] [--json out.json] [--no-build]");
  process.exit(2);
}
const sdk = resolve(sdkArg);
const mocha = join(sdk, "node_modules/mocha/bin/mocha.js");
if (!existsSync(join(sdk, "test/utils.js")) || !existsSync(mocha)) {
  console.error(`${sdk}: not a supertokens-node checkout with its dev dependencies installed (npm ci there first)`);
  process.exit(2);
}

const DEFAULT = ["test/emailpassword", "test/session", ...readdirSync(join(sdk, "test")).filter((f) => /^session.*\.test\.js$/.test(f)).map((f) => `test/${f}`), "test/thirdparty", "test/jwt"];
const testFiles = (only.length ? only : DEFAULT).flatMap(function walk(p) {
  const abs = resolve(sdk, p);
  if (statSync(abs).isDirectory()) return readdirSync(abs).sort().flatMap((f) => walk(join(abs, f)));
  return /\.test\.js$/.test(abs) ? [relative(sdk, abs)] : [];
});

if (!noBuild) execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: root, stdio: "inherit" });

const dir = mkdtempSync(join(tmpdir(), "authsvc-sdk-suite-"));
const authsvc = await startAuthsvc(join(dir, "authsvc.db"));
const utilsFile = join(sdk, "test/utils.js");
const original = readFileSync(utilsFile, "utf8");
let report;
try {
  writeFileSync(utilsFile, `${original}
// Added by authsvc's scripts/sdk-suite.mjs (restored when it ends): the core is authsvc's CDI in its test mode.
module.exports.getCoreUrl = () => process.env.AUTHSVC_CDI_URL;
module.exports.getAppIdFromConnectionURI = (connectionURI) => connectionURI.split("/appid-").pop().split("/")[0];
`);
  // One line per test as it ends (`--stream FILE` keeps them, readable while the run goes on); mocha's
  // own json-stream does the same but refuses --parallel.
  const out = stream ?? join(dir, "mocha.jsonl");
  const reporterFile = join(dir, "stream-reporter.cjs");
  writeFileSync(reporterFile, `const { EVENT_TEST_PASS, EVENT_TEST_FAIL } = require(${JSON.stringify(join(sdk, "node_modules/mocha"))}).Runner.constants;
const row = (t) => ({ title: t.title, fullTitle: t.fullTitle(), file: t.file, duration: t.duration });
module.exports = function StreamReporter(runner) {
  runner.on(EVENT_TEST_PASS, (t) => process.stdout.write(JSON.stringify(["pass", row(t)]) + "\\n"));
  runner.on(EVENT_TEST_FAIL, (t, err) => process.stdout.write(JSON.stringify(["fail", { ...row(t), err: String(err && err.message), stack: String(err && err.stack) }]) + "\\n"));
};
`);
  const started = Date.now();
  await new Promise((ok) => {
    const child = spawn(process.execPath, [mocha, "--no-config", "--require", "test/hooks.js",
      // As the SDK's own `npm test`: no native fetch (nock cannot see it), cross-fetch instead.
      "--node-option", "no-experimental-fetch", "--require", "test/fetch-polyfill.mjs",
      "--timeout", timeout, "--exit", "--reporter", reporterFile,
      // Files in parallel processes (each file's tests share the SDK's global state, so a file stays in one).
      ...(jobs > 1 ? ["--parallel", "--jobs", String(jobs)] : []),
      ...testFiles], {
      cwd: sdk, stdio: ["ignore", openSync(out, "w"), "inherit"],
      env: { ...process.env, AUTHSVC_CDI_URL: `${authsvc.url}/cdi`, TEST_MODE: "testing" },
    });
    child.on("exit", ok);
  });
  report = readReport(out);
  report.seconds = Math.round((Date.now() - started) / 1000);
} finally {
  writeFileSync(utilsFile, original);
  await authsvc.stop();
  rmSync(dir, { recursive: true, force: true });
}

const { stats, failures } = report;
/** mocha's json-stream lines (["pass", test] / ["fail", test] / ["end", stats]) as the json reporter's shape; also a run cut short. */
function readReport(file) {
  const r = { passes: [], failures: [], stats: { passes: 0, failures: 0, pending: 0, tests: 0 } };
  for (const line of readFileSync(file, "utf8").split("\n")) {
    let e;
    try { e = JSON.parse(line); } catch { continue; }
    if (!Array.isArray(e)) continue;
    if (e[0] === "pass") r.passes.push(e[1]);
    if (e[0] === "fail") r.failures.push({ ...e[1], err: { message: e[1].err, stack: e[1].stack } });
  }
  r.stats = { passes: r.passes.length, failures: r.failures.length, pending: 0, tests: r.passes.length + r.failures.length };
  return r;
}
console.log(`\nsupertokens-node's tests against authsvc (${testFiles.length} files, ${report.seconds}s): ${stats.passes} passed, ${stats.failures} failed, ${stats.pending} pending, of ${stats.tests}`);
const byFile = new Map();
for (const t of [...report.passes, ...failures]) {
  const f = relative(sdk, t.file ?? "?");
  const row = byFile.get(f) ?? { pass: 0, fail: 0 };
  if (failures.includes(t)) row.fail++; else row.pass++;
  byFile.set(f, row);
}
for (const [f, r] of [...byFile].sort()) console.log(`  ${f}: ${r.pass} passed, ${r.fail} failed`);
if (failures.length) console.log("\nFailures:");
for (const t of failures) console.log(`- ${t.fullTitle.replace(/\x1b\[[0-9;]*m/g, "")}\n    ${String(t.err?.message ?? "").split("\n")[0].slice(0, 300)}`);
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ stats, files: Object.fromEntries(byFile), failures: failures.map((t) => ({ file: relative(sdk, t.file ?? "?"), title: t.fullTitle, error: t.err?.message, stack: t.err?.stack })) }, null, 2));

/** `authsvc serve` in the CDI's test mode, quiet, no mail catcher, no rate limits (the suite signs in from one address all day). */
function startAuthsvc(database) {
  const child = spawn(process.execPath, ["bin/authsvc", "serve", "--port", "0", "--host", "127.0.0.1", "--database", database,
    "--bcrypt-cost", "4", "--workers", "1", "--no-mail-catcher", "--no-rate-limits", "--log-level", "warn"], {
    cwd: root, stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, AUTHSVC_MODE: "development", AUTHSVC_CDI_TEST_MODE: "1" },
  });
  let buf = "";
  return new Promise((ok, fail) => {
    child.stderr.on("data", (d) => {
      buf += d;
      if (process.env.SDK_SUITE_SERVER_LOG) process.stderr.write(d);
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(buf);
      if (m) ok({ url: `http://127.0.0.1:${m[1]}`, stop: () => new Promise((done) => { if (child.exitCode !== null) return done(); child.once("exit", done); child.kill("SIGTERM"); }) });
    });
    child.on("exit", (code) => fail(new Error(`authsvc serve exited with ${code}: ${buf}`)));
  });
}
