import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/**
 * How the docs run authsvc, so every command works as pasted from an app's own folder and none
 * reaches for a public npm package that happens to be called "authsvc":
 * - `authsvc …`: the single executable on PATH (or a checkout's bin/ put on PATH);
 * - a path that exists: `./bin/authsvc` in a checkout, `./node_modules/.bin/authsvc` where authsvc
 *   is an npm dependency of the app, `/usr/local/bin/authsvc` where the docs install the executable;
 * - `npx` only in the checkout's quick start (`npm ci && npx authsvc serve`: the package's own bin)
 *   and with `--package` naming a local tarball.
 */
const ROOT = resolve(import.meta.dirname, "../..");
const pages = ["README.md", ...(existsSync(join(ROOT, "docs")) ? walk(join(ROOT, "docs")) : [])];

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith(".md") ? [relative(ROOT, join(dir, e.name))] : []);
}

/** Every line of every page that runs authsvc, with where it is. */
function commandLines(): Array<{ where: string; line: string }> {
  const out: Array<{ where: string; line: string }> = [];
  for (const page of pages) {
    readFileSync(join(ROOT, page), "utf8").split("\n").forEach((line, i) => {
      if (/\bnpx\b[^`\n]*\bauthsvc\b|\S*node_modules\/\.bin\/authsvc|ExecStart=\S*authsvc/.test(line)) out.push({ where: `${page}:${i + 1}`, line });
    });
  }
  return out;
}

describe("the docs run authsvc where users run it", () => {
  const lines = commandLines();
  it("use npx only for the checkout's quick start or a local --package, never a bare `npx authsvc` from an app's folder", () => {
    const npx = lines.filter((l) => /\bnpx\b/.test(l.line));
    expect(npx.length).toBeGreaterThan(0);
    const wrong = npx.filter((l) => {
      // A command (npx … authsvc <subcommand>), not prose naming `npx authsvc` as the thing to avoid.
      const uses = [...l.line.matchAll(/\bnpx\b((?:\s+--?[\w-]+(?:[ =](?!authsvc\b)\S+)?)*)\s+authsvc\s+-*[a-z]/g)];
      // The quick start's own command, in its block or named in prose (`npx authsvc serve`), is the checkout's.
      const quickStart = /npm ci && npx authsvc serve|`npx authsvc serve`/.test(l.line);
      return uses.some((m) => !/--package[ =]\.?\.?\//.test(m[1]) && !quickStart);
    });
    expect(wrong.map((l) => `${l.where}: ${l.line.trim()}`)).toEqual([]);
  });

  it("name node_modules/.bin/authsvc only as ./node_modules/.bin/authsvc (an app with authsvc as a dependency; a checkout has none)", () => {
    const wrong = lines.filter((l) => /node_modules\/\.bin\/authsvc/.test(l.line) && /(^|[^.\w/])node_modules\/\.bin\/authsvc/.test(l.line.replace(/\.\/node_modules/g, "")));
    expect(wrong.map((l) => `${l.where}: ${l.line.trim()}`)).toEqual([]);
  });

  it("point process managers at a path the docs create or a checkout has", () => {
    const all = pages.map((p) => readFileSync(join(ROOT, p), "utf8")).join("\n");
    const starts = lines.filter((l) => /ExecStart=/.test(l.line));
    expect(starts.length).toBeGreaterThan(0);
    for (const s of starts) {
      const path = /ExecStart=(\S+)/.exec(s.line)![1];
      const installed = new RegExp(`\\binstall\\b[^\\n]*\\s${path.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}\\b`).test(all);
      expect(installed || /\/bin\/authsvc$/.test(path), `${s.where}: ${path} is neither installed by the docs nor a checkout's bin/authsvc`).toBe(true);
    }
  });
});

describe("the launchers the docs name", () => {
  const dirs: string[] = [];
  afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });
  const run = (cmd: string, cwd: string, env: NodeJS.ProcessEnv) => new Promise<{ code: number; out: string }>((ok) => {
    execFile("bash", ["-c", cmd], { cwd, env, timeout: 60_000 }, (err, stdout, stderr) => ok({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, out: stdout + stderr }));
  });
  /** A registry address nothing answers on: a command that asked the registry would fail. */
  const deadRegistry = () => new Promise<string>((ok) => { const s = createServer().listen(0, "127.0.0.1", () => { const { port } = s.address() as { port: number }; s.close(() => ok(`http://127.0.0.1:${port}/`)); }); });

  it("`npx authsvc` in the checkout runs the checkout's own bin without asking the registry", async () => {
    const env = { ...process.env, npm_config_registry: await deadRegistry(), npm_config_fetch_retries: "0", npm_config_update_notifier: "false" };
    const r = await run("npx authsvc --version", ROOT, env);
    expect(r.out).toMatch(/^authsvc \S+ \(commit \w+, npm, Node\.js v[\d.]+\)$/m);
    expect(r.code).toBe(0);
  });

  it("from an app's folder: ./node_modules/.bin/authsvc (authsvc as a dependency) and authsvc on PATH both run it; nothing else is tried", async () => {
    const app = mkdtempSync(join(tmpdir(), "authsvc-app-"));
    dirs.push(app);
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "my-app", private: true, dependencies: { authsvc: `file:${ROOT}` } }));
    // What `npm install` of the dependency leaves: the package, and its bin linked into node_modules/.bin.
    mkdirSync(join(app, "node_modules", ".bin"), { recursive: true });
    symlinkSync(ROOT, join(app, "node_modules", "authsvc"));
    symlinkSync("../authsvc/bin/authsvc", join(app, "node_modules", ".bin", "authsvc"));
    const env = { PATH: process.env.PATH, HOME: app, AUTHSVC_DATABASE: join(app, "auth.db") };
    expect((await run("./node_modules/.bin/authsvc --version", app, env)).out).toMatch(/^authsvc \S+ \(commit/);
    expect((await run("authsvc --version", app, { ...env, PATH: `${join(ROOT, "bin")}:${process.env.PATH}` })).out).toMatch(/^authsvc \S+ \(commit/);
    // Without it on PATH a bare `authsvc` is "command not found": it never fetches anything.
    const missing = await run("authsvc --version", app, { ...env, PATH: "/usr/bin:/bin" });
    expect(missing.code).toBe(127);
  });
});
