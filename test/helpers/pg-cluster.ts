import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./serve-process.js";

/** A PostgreSQL cluster of the test's own (own data folder and port), which it may stop and restart at will. */
export interface PgCluster {
  url: string;
  /** `pg_ctl stop` in this mode (fast: clients are disconnected; immediate: the server is killed). */
  stop(mode: "fast" | "immediate"): Promise<void>;
  /** Starts it and resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it (if running) and removes its data folder. */
  destroy(): Promise<void>;
}

/** The newest installed PostgreSQL's bin folder (Debian: /usr/lib/postgresql/<version>/bin), if any. */
export function findPgBin(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, "bin", "initdb"))).sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], "bin") : undefined;
}

/**
 * initdb into a temporary folder and start it on a free port, listening on 127.0.0.1 only, with trust
 * authentication. PostgreSQL refuses to run as root: as root (CI) the cluster belongs to the
 * `postgres` OS user and every pg_ctl runs through runuser. fsync is off: the restarts here are
 * process restarts, the operating system's cache survives them (and so does every commit).
 */
export async function createPgCluster(bin: string): Promise<PgCluster> {
  const dir = mkdtempSync(join(tmpdir(), "authsvc-pg-"));
  const data = join(dir, "data");
  const port = await freePort();
  const root = process.getuid?.() === 0;
  if (root) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    chownSync(dir, uid, gid);
  }
  // Asynchronous on purpose: the test's clients keep sending requests while pg_ctl waits.
  const run = async (tool: string, args: string[]) => {
    const [cmd, argv] = root ? ["runuser", ["-u", "postgres", "--", join(bin, tool), ...args]] : [join(bin, tool), args];
    try {
      await promisify(execFile)(cmd, argv, { cwd: dir, timeout: 60_000 });
    } catch (err) {
      const e = err as { stderr?: string; stdout?: string; message: string };
      throw new Error(`${tool} ${args.join(" ")} failed: ${e.message}${e.stderr ?? ""}${e.stdout ?? ""}`);
    }
  };
  await run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=40`;
  const start = () => run("pg_ctl", ["-D", data, "-l", join(dir, "log"), "-o", options, "-w", "-t", "30", "start"]);
  let running = false;
  await start();
  running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async (mode) => { await run("pg_ctl", ["-D", data, "-m", mode, "-w", "-t", "30", "stop"]); running = false; },
    start: async () => { await start(); running = true; },
    destroy: async () => {
      if (running) await run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => { /* already down */ });
      running = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
