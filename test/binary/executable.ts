import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface ExeResult { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }

/**
 * The single executable as a user gets it: built by `npm run build:binary`, copied alone into a
 * fresh directory (also the working directory of every run), run with a PATH that holds no
 * `node` and a HOME of its own (so the addon cache starts empty).
 */
export interface Installed {
  /** The directory holding the executable and nothing else (until the runs write a database). */
  dir: string;
  exe: string;
  home: string;
  env: Record<string, string>;
  run(args: string[], opts?: { stdin?: string; env?: Record<string, string> }): Promise<ExeResult>;
  start(args: string[], opts?: { env?: Record<string, string> }): ChildProcess & { result: Promise<ExeResult>; stderrMatches(re: RegExp): Promise<RegExpMatchArray> };
  /** Deletes the copy (about 100 MB), its HOME and everything the runs wrote. */
  remove(): void;
}

export function buildAndInstall(): Installed {
  execFileSync(process.execPath, ["scripts/build-binary.mjs"], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
  const built = join(ROOT, "dist", `authsvc-${process.platform}-${process.arch}`);
  const dir = mkdtempSync(join(tmpdir(), "authsvc-binary-"));
  const exe = join(dir, "authsvc");
  copyFileSync(built, exe);
  chmodSync(exe, 0o755);
  const outside = mkdtempSync(join(tmpdir(), "authsvc-binary-env-"));
  const home = join(outside, "home");
  const path = join(outside, "empty-path");
  mkdirSync(home);
  mkdirSync(path);
  if (existsSync(join(path, "node")) || readdirSync(dir).length !== 1) throw new Error("the test's installation is not clean");
  // Only what a service manager would set: no NODE_*, no npm_*, no PATH with node on it.
  const env = { PATH: path, HOME: home, AUTHSVC_BCRYPT_COST: "4", AUTHSVC_LOG_LEVEL: "error" };

  const start: Installed["start"] = (args, opts = {}) => {
    const child = spawn(exe, args, { cwd: dir, env: { ...env, ...opts.env }, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    const watchers: Array<{ re: RegExp; resolve: (m: RegExpMatchArray) => void }> = [];
    child.stdout!.on("data", (d) => { stdout += d; });
    child.stderr!.on("data", (d) => {
      stderr += d;
      for (const w of watchers) { const m = stderr.match(w.re); if (m) w.resolve(m); }
    });
    const result = new Promise<ExeResult>((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    });
    const stderrMatches = (re: RegExp) => new Promise<RegExpMatchArray>((resolve, reject) => {
      const m = stderr.match(re);
      if (m) return resolve(m);
      watchers.push({ re, resolve });
      void result.then((r) => reject(new Error(`authsvc ${args.join(" ")} ended (code ${r.code}) before printing ${re}:\n${r.stderr}`)));
    });
    return Object.assign(child, { result, stderrMatches });
  };
  const run: Installed["run"] = (args, opts = {}) => {
    const child = start(args, opts);
    child.stdin!.end(opts.stdin ?? "");
    return child.result;
  };
  const remove = () => { for (const d of [dir, outside]) rmSync(d, { recursive: true, force: true }); };
  return { dir, exe, home, env, run, start, remove };
}
