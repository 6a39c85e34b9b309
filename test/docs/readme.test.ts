import { execFile, execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { listDocFiles } from "../helpers/doc-files.js";
import { expectedOutputs, readBlocks } from "../helpers/readme-blocks.js";
import { freePort, startServe } from "../helpers/serve-process.js";

/**
 * The ```sh blocks of the README and of every docs/ page, run with bash in order against a real
 * `serve` (the built bin), as a reader would paste them after `npm ci`: `authsvc` is this checkout's
 * bin on PATH, the examples' port 3567 is rewritten to the server's, and shell variables carry over from
 * block to block (and page to page).
 */
const ROOT = resolve(import.meta.dirname, "../..");
const blocks = listDocFiles().flatMap((f) => readBlocks(join(ROOT, f)).map((b) => ({ ...b, file: f }))).filter((b) => b.lang === "sh");
const runnable = blocks.filter((b) => !b.skip);

/**
 * Runs one block with bash in `dir`. Upper-case variables the block sets (ACCESS=…) are appended to
 * state.sh, which the next block sources; `baseline` lists bash's own and the environment's names.
 */
function runBlock(dir: string, code: string, env: NodeJS.ProcessEnv, baseline: Set<string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const skip = [...baseline].join(" ");
  const script = [
    "if [ -f state.sh ]; then source state.sh; fi",
    "set -euo pipefail",
    code,
    "set +eu",
    `for __v in $(compgen -v); do case " ${skip} " in *" $__v "*) ;; *) [[ "$__v" =~ ^[A-Z][A-Z0-9_]*$ ]] && declare -p "$__v";; esac; done >> state.sh`,
    "exit 0",
  ].join("\n");
  writeFileSync(join(dir, "block.sh"), script);
  return new Promise((ok) => {
    execFile("bash", ["block.sh"], { cwd: dir, env, timeout: 90_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      ok({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

describe.each(backends)("docs shell examples on $name", (backend) => {
  let dir: string;
  let port: number;
  let env: NodeJS.ProcessEnv;
  let server: { stop(): Promise<void> } | undefined;
  let baseline: Set<string>;
  let db: { url: string; drop(): Promise<void> };
  // The new database of docs/production.md's move to PostgreSQL: a schema of its own, or another SQLite file without PostgreSQL.
  let moved: { url: string; drop(): Promise<void> } | undefined;

  beforeAll(async () => {
    // A folder like a fresh checkout: this package (so `npx authsvc` runs its bin), its node_modules,
    // and copies of the files the docs run (copies: a symlinked script sees another import.meta.url).
    dir = mkdtempSync(join(tmpdir(), "authsvc-readme-"));
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "authsvc", private: true, type: "module", bin: { authsvc: "bin/authsvc" } }));
    symlinkSync(join(ROOT, "bin"), join(dir, "bin"));
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
    cpSync(join(ROOT, "examples"), join(dir, "examples"), { recursive: true });
    db = backend.name === "sqlite" ? { url: join(dir, "authsvc.db"), drop: async () => {} } : await backend.create();
    const pg = backends.find((b) => b.name === "postgres");
    moved = backend.name === "sqlite" && pg ? await pg.create() : { url: join(dir, "moved.db"), drop: async () => {} };
    port = await freePort();
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("AUTHSVC_")));
    env = {
      ...clean,
      // `authsvc …` as the docs write it: the executable on PATH (here the checkout's bin/).
      PATH: `${join(ROOT, "bin")}:${join(ROOT, "node_modules/.bin")}:${process.env.PATH}`,
      AUTHSVC_DATABASE: db.url, AUTHSVC_PORT: String(port), AUTHSVC_BCRYPT_COST: "4", AUTHSVC_MAIL_CATCHER_PORT: "0",
      AUTHSVC_LOG_LEVEL: "warn", AUTHSVC_URL: `http://localhost:${port}`,
      // The admin API example's key: the docs' server terminal exports it before `authsvc serve`.
      AUTHSVC_ADMIN_API_KEY: "hrhSk2v0aLqZjvWMDyXJkJvxR9-vqCIGVyoqkyBH01E",
      DATABASE_URL: moved.url,
    };
    baseline = new Set(execFileSync("bash", ["-c", "compgen -v"], { env, encoding: "utf8" }).split("\n"));
    server = await startServe(dir, env);
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await db?.drop();
    await moved?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("has shell examples to run, and says why for each one it skips", () => {
    expect(runnable.length).toBeGreaterThan(5);
    for (const b of blocks.filter((x) => x.skip)) expect(b.skip!.length, `${b.file} line ${b.line}`).toBeGreaterThan(10);
  });

  it.each(runnable.filter((b) => !b.only || b.only === backend.name).map((b) => [`${b.file} line ${b.line} (${b.heading})`, b] as const))("%s", async (name, block) => {
    const code = block.code.replace(/\b(localhost|127\.0\.0\.1):3567\b/g, `$1:${port}`);
    // A walkthrough that begins with "stop authsvc" runs with the server stopped, which starts again after it.
    if (block.serverStopped) await server?.stop();
    const r = await runBlock(dir, code, env, baseline).finally(async () => { if (block.serverStopped) server = await startServe(dir, env); });
    const report = `${name} failed (exit ${r.code}):\n${block.code}\n--- stdout ---\n${r.stdout}\n--- stderr ---\n${r.stderr}`;
    expect(r.code, report).toBe(0);
    for (const want of expectedOutputs(block.code)) {
      expect(want.pattern.test(r.stdout), `${name}: output should contain ${want.text}\n--- stdout ---\n${r.stdout}`).toBe(true);
    }
  }, 95_000); // a block of several `npx authsvc …` commands on a loaded machine; bash itself stops at 90 s
});
