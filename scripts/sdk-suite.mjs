// supertokens-node's own test files against authsvc's CDI (docs/supertokens-core.md, "The SDK's
// own test suite"): the measurement of issue 52, not part of CI (it needs the SDK's repository).
//
//   node scripts/sdk-suite.mjs <supertokens-node checkout, its dev dependencies installed> [test files or folders…]
//     [--json out.json] [--jobs N] [--no-build]
//
// Starts `authsvc serve` in the CDI's test mode (AUTHSVC_CDI_TEST_MODE=1: apps made per test, each
// its own empty SQLite database) on a throwaway database, points the SDK's test utilities at it
// (test/utils.js: `getCoreUrl`, and `getAppIdFromConnectionURI`, which would cut a UUID app id at
// its first dash), runs the files with mocha, restores test/utils.js and prints the pass and fail
// counts, then each failure with its first line. The files run in N processes at once (--jobs, 4 by default; 1 runs them in one). Default files: test/emailpassword, test/session,
// test/session*.test.js, test/thirdparty, test/jwt.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const flag = (name) => { const i = args.indexOf(name); if (i < 0) return undefined; const v = args[i + 1]; args.splice(i, 2); return v; };
const jsonOut = flag("--json");
const jobs = Number(flag("--jobs") ?? "4");
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
  const out = join(dir, "mocha.json");
  const started = Date.now();
  await new Promise((ok) => {
    const child = spawn(process.execPath, [mocha, "--no-config", "--require", "test/hooks.js",
      // As the SDK's own `npm test`: no native fetch (nock cannot see it), cross-fetch instead.
      "--node-option", "no-experimental-fetch", "--require", "test/fetch-polyfill.mjs", "--timeout", "40000", "--exit",
      // Files in parallel processes (each file's tests share the SDK's global state, so a file stays in one).
      ...(jobs > 1 ? ["--parallel", "--jobs", String(jobs)] : []),
      "--reporter", "json", "--reporter-option", `output=${out}`, ...testFiles], {
      cwd: sdk, stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, AUTHSVC_CDI_URL: `${authsvc.url}/cdi`, TEST_MODE: "testing" },
    });
    child.on("exit", ok);
  });
  report = JSON.parse(readFileSync(out, "utf8"));
  report.seconds = Math.round((Date.now() - started) / 1000);
} finally {
  writeFileSync(utilsFile, original);
  await authsvc.stop();
  rmSync(dir, { recursive: true, force: true });
}

const { stats, failures } = report;
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
