// `npm run bench -- --compare <git ref>`: this checkout (A) against another commit (B), built in a
// temporary git worktree, run interleaved on the same machine (A,B then B,A, round after round), each
// figure printed for both builds, as a ratio to its ceiling measured in the same round, and as B ÷ A.
// A slower hot path shows up here before it lands, without a timed test (docs/performance.md).
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { measureBcrypt, measureRs256 } from "./ceilings.mjs";
import { startHello, startListening } from "./servers.mjs";
import { root } from "../build-info.mjs";

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const load1 = () => loadavg()[0].toFixed(2);

/** A worktree of `ref` with its own build; node_modules shared when the lockfiles match, else `npm ci`. */
export function prepareCheckout(ref, log) {
  const commit = execFileSync("git", ["rev-parse", "--short", `${ref}^{commit}`], { cwd: root, encoding: "utf8" }).trim();
  const dir = mkdtempSync(join(tmpdir(), `authsvc-compare-${commit}-`));
  rmSync(dir, { recursive: true, force: true });
  execFileSync("git", ["worktree", "add", "--detach", dir, commit], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  const lock = (d) => readFileSync(join(d, "package-lock.json"), "utf8");
  if (lock(dir) === lock(root)) {
    symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  } else {
    log(`compare: ${commit} has other dependencies: npm ci in ${dir}`);
    try {
      execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--ignore-scripts"], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
      // The one native addon the server loads from disk: this checkout's build when the versions
      // match (compiling SQLite takes minutes on a small machine), else its own install script.
      const version = (d) => JSON.parse(readFileSync(join(d, "node_modules/better-sqlite3/package.json"), "utf8")).version;
      if (version(dir) === version(root)) cpSync(join(root, "node_modules/better-sqlite3/build"), join(dir, "node_modules/better-sqlite3/build"), { recursive: true });
      else execFileSync("npm", ["rebuild", "better-sqlite3"], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
    } catch (err) {
      // Offline, say: this checkout's packages are usually close enough to build and run it.
      log(`compare: npm ci failed (${String(err.message).split("\n")[0]}); using this checkout's node_modules instead`);
      rmSync(join(dir, "node_modules"), { recursive: true, force: true });
      symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
    }
  }
  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
  return {
    commit, dir,
    remove: () => { try { execFileSync("git", ["worktree", "remove", "--force", dir], { cwd: root, stdio: "ignore" }); } catch { rmSync(dir, { recursive: true, force: true }); } },
  };
}

const RESOURCE = "https://mcp.example.com/mcp";

/**
 * A resource and a confidential machine client in the build's database, made with its own CLI
 * before it serves: what the token endpoint's load asks with (client credentials for the resource).
 */
function oauthClient(dir, database) {
  const cli = (args) => JSON.parse(execFileSync(process.execPath, [join(dir, "bin/authsvc"), ...args, "--database", database, "--json"], { encoding: "utf8" }));
  execFileSync(process.execPath, [join(dir, "bin/authsvc"), "migrate", "--database", database], { stdio: "ignore" });
  cli(["oauth", "resources", "create", RESOURCE, "--scopes", "notes:read"]);
  const c = cli(["oauth", "clients", "create", "--name", "bench", "--confidential", "--grant-types", "client_credentials", "--resources", RESOURCE]);
  return {
    basic: `Basic ${Buffer.from(`${encodeURIComponent(c.clientId)}:${encodeURIComponent(c.clientSecret)}`).toString("base64")}`,
    form: new URLSearchParams({ grant_type: "client_credentials", resource: RESOURCE, scope: "notes:read" }).toString(),
  };
}

/** `serve` of the build in `dir`, one process (older builds had no --workers), quiet, no rate limits. */
async function startBuild(dir, database, cost) {
  const help = execFileSync(process.execPath, [join(dir, "bin/authsvc"), "serve", "--help"], { encoding: "utf8" });
  const args = [join(dir, "bin/authsvc"), "serve", "--port", "0", "--host", "127.0.0.1", "--database", database,
    "--bcrypt-cost", String(cost), "--no-mail-catcher", "--no-rate-limits", "--log-level", "warn"];
  if (help.includes("--workers")) args.push("--workers", "1");
  return startListening(args);
}

/** Resident memory of a process, in MB (Linux /proc): now (VmRSS), or its peak so far (VmHWM). */
function rssMb(pid, field = "VmRSS") {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : NaN;
}

/**
 * Runs the comparison and prints it. `load(url, kind, extra)` is the bench's load generator.
 * Figures per round and build: GET req/s ÷ the hello-world's, sign-in and sign-up ÷ bcrypt at the
 * same cost, refresh and the OAuth token endpoint ÷ one-thread RS256 signing, and idle RSS after
 * start and one sign-up.
 */
export async function runCompare({ ref, rounds, cost, seconds, load, log, password }) {
  const other = prepareCheckout(ref, log);
  const scratch = mkdtempSync(join(tmpdir(), "authsvc-compare-db-"));
  const servers = [];
  try {
    const builds = [{ name: "A", label: `this checkout (${execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim()}${execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: root, encoding: "utf8" }).trim() ? "+changes" : ""})`, dir: root },
      { name: "B", label: `${ref} (${other.commit})`, dir: other.dir }];
    const hello = await startHello(); servers.push(hello);
    for (const b of builds) {
      b.oauth = oauthClient(b.dir, join(scratch, `${b.name}.db`));
      b.server = await startBuild(b.dir, join(scratch, `${b.name}.db`), cost); servers.push(b.server);
      const signUp = async (email) => {
        const res = await fetch(`${b.server.url}/auth/signup`, { method: "POST", headers: { "content-type": "application/json", "st-auth-mode": "header" }, body: JSON.stringify({ formFields: [{ id: "email", value: email }, { id: "password", value: password }] }) });
        if (res.status !== 200) throw new Error(`${b.label}: sign-up answered ${res.status}`);
        return res;
      };
      b.email = "compare@example.com";
      await signUp(b.email);
      // The GETs' token belongs to a user of its own: the sign-in rounds sign the first one in far
      // past --sessions-per-user (100, in builds that have it), which revokes its oldest sessions, and
      // the GETs would then measure the 401 of a revoked session.
      b.access = (await signUp(`get-${b.email}`)).headers.get("st-access-token");
      // Refresh tokens for the refresh scenario: real sign-ins (any schema), rotated and reused round after round.
      b.refreshTokens = [];
      await Promise.all(Array.from({ length: 4 }, async () => {
        while (b.refreshTokens.length < 60) {
          const r = await fetch(`${b.server.url}/auth/signin`, { method: "POST", headers: { "content-type": "application/json", "st-auth-mode": "header" }, body: JSON.stringify({ formFields: [{ id: "email", value: b.email }, { id: "password", value: password }] }) });
          if (r.status !== 200) throw new Error(`${b.label}: sign-in answered ${r.status}`);
          b.refreshTokens.push(r.headers.get("st-refresh-token"));
        }
      }));
    }
    // Idle: each build's resident memory once it has had nothing to do for 35 s (a hashing thread
    // without work ends after 30 s, src/core/hash-pool.ts).
    await new Promise((r) => setTimeout(r, 35_000));
    const samples = {};
    const rec = (k, v) => (samples[k] ??= []).push(v);
    for (const b of builds) rec(`rss${b.name}`, rssMb(b.server.pid));
    const hashing = { connections: 8, drainMs: 1000 };
    for (let i = 0; i < rounds; i++) {
      const order = i % 2 === 0 ? builds : [...builds].reverse();
      log(`compare: round ${i + 1}/${rounds} (${order.map((b) => b.name).join(",")}), load ${load1()}`);
      rec("load", loadavg()[0]);
      rec("hello", (await load(hello.url, "hello")).rps);
      for (const b of order) {
        const r = await load(b.server.url, "get", { access: b.access });
        if (r.non2xx || r.errors) log(`compare: warning: GET on ${b.name}: ${r.non2xx} non-2xx, ${r.errors} errors of ${r.total}`);
        rec(`get${b.name}`, r.rps);
      }
      for (const b of order) {
        const r = await load(b.server.url, "refresh", { refreshTokens: b.refreshTokens });
        if (r.tokens) b.refreshTokens = r.tokens;
        rec(`refresh${b.name}`, r.rps);
      }
      // The OAuth token endpoint (8 in flight, as scripts/bench/oauth-token.mjs): one RS256 signature per token.
      for (const b of order) {
        const r = await load(b.server.url, "token", { ...b.oauth, connections: 8 });
        if (r.non2xx || r.errors) log(`compare: warning: token on ${b.name}: ${r.non2xx} non-2xx, ${r.errors} errors of ${r.total}`);
        rec(`token${b.name}`, r.rps);
      }
      rec("rs256", measureRs256(Math.min(seconds, 2)));
      for (const b of order) rec(`signin${b.name}`, (await load(b.server.url, "signin", { email: b.email, ...hashing })).rps);
      for (const b of order) rec(`signup${b.name}`, (await load(b.server.url, "signup", hashing)).rps);
      // The sign-ups cut off by the load's end are still hashing in the server (up to 8, a quarter
      // of a second of both cores): measured then, the ceiling came out 10-15 % low.
      await new Promise((r) => setTimeout(r, hashing.drainMs));
      const bc = await measureBcrypt(cost, Math.min(seconds, 3));
      rec("bcryptVerify", bc.verify); rec("bcryptHash", bc.hash);
    }
    for (const b of builds) rec(`rssAfter${b.name}`, rssMb(b.server.pid));
    for (const b of builds) rec(`rssPeak${b.name}`, rssMb(b.server.pid, "VmHWM"));
    const rows = [];
    const ratioOf = (k, over) => median(samples[k].map((v, i) => v / samples[over][i]));
    const figure = (name, key, over, ceiling) => {
      const a = ratioOf(`${key}A`, over), b = ratioOf(`${key}B`, over);
      rows.push({ figure: name, ceiling, ceilingValue: median(samples[over]), a: median(samples[`${key}A`]), aRatio: a, b: median(samples[`${key}B`]), bRatio: b, aOverB: median(samples[`${key}A`].map((v, i) => v / samples[`${key}B`][i])) });
    };
    figure("GET /auth/user/email/verify req/s", "get", "hello", "h3 hello-world req/s");
    figure("POST /auth/session/refresh req/s", "refresh", "rs256", "RS256 signs/s, one thread");
    figure("POST /oauth/token req/s (client credentials, 8 in flight)", "token", "rs256", "RS256 signs/s, one thread");
    figure(`POST /auth/signin req/s (cost ${cost})`, "signin", "bcryptVerify", "bcrypt verifies/s, 4 in flight");
    figure(`POST /auth/signup req/s (cost ${cost})`, "signup", "bcryptHash", "bcrypt hashes/s, 4 in flight");
    rows.push({ figure: "idle RSS MB (61 sign-ins, then 35 s idle)", a: samples.rssA[0], b: samples.rssB[0], aOverB: samples.rssA[0] / samples.rssB[0], diff: samples.rssA[0] - samples.rssB[0] });
    rows.push({ figure: "peak RSS MB over the rounds (VmHWM)", a: samples.rssPeakA[0], b: samples.rssPeakB[0], aOverB: samples.rssPeakA[0] / samples.rssPeakB[0], diff: samples.rssPeakA[0] - samples.rssPeakB[0] });
    rows.push({ figure: "RSS MB right after the rounds", a: samples.rssAfterA[0], b: samples.rssAfterB[0], aOverB: samples.rssAfterA[0] / samples.rssAfterB[0], diff: samples.rssAfterA[0] - samples.rssAfterB[0] });
    printCompare(builds, rows, { rounds, seconds, cost, load: samples.load });
    return { a: builds[0].label, b: builds[1].label, rounds, seconds, bcryptCost: cost, loadAverage: samples.load, rows, samples };
  } finally {
    for (const s of servers) await s.stop();
    rmSync(scratch, { recursive: true, force: true });
    other.remove();
  }
}

const num = (v) => (v === undefined ? "" : Math.abs(v) >= 100 ? Math.round(v).toLocaleString("en-US") : v.toFixed(2));

function printCompare(builds, rows, { rounds, seconds, cost, load }) {
  console.log(`A = ${builds[0].label}; B = ${builds[1].label}; ${rounds} interleaved rounds of ${seconds}s, bcrypt cost ${cost}; load average ${load.map((l) => l.toFixed(2)).join(", ")} (at each round's start)`);
  const table = [["figure", "A", "A ÷ ceiling", "B", "B ÷ ceiling", "A ÷ B", "ceiling (median)"]];
  for (const r of rows) {
    table.push([r.figure, num(r.a), r.aRatio === undefined ? "" : r.aRatio.toFixed(2), num(r.b), r.bRatio === undefined ? "" : r.bRatio.toFixed(2),
      r.diff !== undefined ? `${r.aOverB.toFixed(2)} (${r.diff >= 0 ? "+" : ""}${r.diff.toFixed(1)} MB)` : r.aOverB.toFixed(2),
      r.ceiling ? `${r.ceiling} (${num(r.ceilingValue)})` : ""]);
  }
  const widths = table[0].map((_, c) => Math.max(...table.map((r) => String(r[c]).length)));
  for (const [i, r] of table.entries()) {
    console.log(r.map((cell, c) => String(cell).padEnd(widths[c])).join("  ").trimEnd());
    if (i === 0) console.log(widths.map((w) => "-".repeat(w)).join("  "));
  }
}
