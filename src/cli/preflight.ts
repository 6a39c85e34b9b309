import { accessSync, constants, existsSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, resolve } from "node:path";
import type { Config } from "../config.js";
import { isPostgresUrl, sqliteFilePath } from "../store/database.js";
import { describeFsError } from "../util/fs-error.js";
import { CliError } from "./io.js";

/**
 * Checks made before `serve` opens anything, so a start that is going to fail fails before a
 * database file, a migration or a signing key exists: the ports it will listen on are free.
 * (The real listen still reports a port taken in between; this only makes the common case clean.)
 */
export async function checkPortsFree(config: Readonly<Config>, opts: { httpPortBoundFirst?: boolean } = {}): Promise<void> {
  const wanted: Array<{ host: string; port: number; what: string; hint: string; flag: string }> = [];
  // The same words as the real listen's ListenError (http/server.ts) for the HTTP port. With
  // --workers N the HTTP port is bound (not listened on) before anything else and that bind is the
  // check: probing it here would listen for a moment, and a client connecting in that moment would
  // have its connection accepted and then reset instead of refused.
  if (config.port !== 0 && !opts.httpPortBoundFirst) wanted.push({ host: config.host, port: config.port, what: `port ${config.port} on ${config.host}`, hint: "", flag: "--port" });
  if (config.mailCatcher && config.mailCatcherPort !== 0) {
    wanted.push({
      host: config.mailCatcherHost, port: config.mailCatcherPort, what: `the built-in mail catcher's port ${config.mailCatcherPort} on ${config.mailCatcherHost}`,
      hint: " (another authsvc serve, or a mail tool such as MailHog or Mailpit?)", flag: "--mail-catcher-port (0 picks a free one), or turn the catcher off with --no-mail-catcher",
    });
  }
  if (config.metricsPort) wanted.push({ host: config.metricsHost, port: config.metricsPort, what: `the metrics port ${config.metricsPort} on ${config.metricsHost}`, hint: "", flag: "--metrics-port" });
  for (const w of wanted) {
    const code = await probeListen(w.host, w.port);
    if (code === "EADDRINUSE") throw new CliError(`${w.what} is already in use${w.hint}; stop the other process or choose another with ${w.flag}`);
    if (code === "EACCES") throw new CliError(`${w.what} needs privileges this process does not have; choose a port above 1023 with ${w.flag}`);
    // Other failures (an address this machine lacks) are reported by the real listen, which names them.
  }
}

function probeListen(host: string, port: number): Promise<string | undefined> {
  return new Promise((done) => {
    const s = createServer();
    s.once("error", (err: NodeJS.ErrnoException) => done(err.code ?? "EUNKNOWN"));
    s.listen({ host, port, exclusive: true }, () => s.close(() => done(undefined)));
  });
}

/**
 * Where a SQLite database will live must be a folder that exists and this process may write (SQLite
 * keeps its -wal and -shm files beside the database): said with the path and "permission denied",
 * never SQLite's bare "unable to open database file". PostgreSQL URLs and :memory: pass.
 */
export function checkSqliteLocation(database: string): void {
  if (isPostgresUrl(database)) return;
  const file = sqliteFilePath(database);
  if (file === ":memory:") return;
  const path = resolve(file);
  const folder = dirname(path);
  const elsewhere = "or point --database (AUTHSVC_DATABASE) at another path";
  if (!existsSync(folder)) throw new CliError(`cannot create the SQLite database ${path}: the folder ${folder} does not exist; create it (mkdir -p ${folder}) ${elsewhere}`);
  if (!statSync(folder).isDirectory()) throw new CliError(`cannot create the SQLite database ${path}: ${folder} is a file, not a folder; ${elsewhere.replace(/^or /, "")}`);
  const target = existsSync(path) ? path : folder;
  for (const p of new Set([target, folder])) {
    try {
      accessSync(p, constants.R_OK | constants.W_OK);
    } catch (err) {
      const which = p === folder ? `the folder ${folder}` : `the file ${path}`;
      throw new CliError(`cannot open the SQLite database ${path}: ${describeFsError(err)} on ${which} (authsvc must be able to write it, and SQLite keeps its -wal and -shm files in the folder); run authsvc as a user who may write there, ${elsewhere}`);
    }
  }
}
