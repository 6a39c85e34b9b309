import type { Server } from "node:http";
import { Command } from "commander";
import { listen as listhen } from "listhen";
import type { App } from "../app.js";
import type { Config } from "../config.js";
import { lowerHashingPriority } from "../core/hashing-priority.js";
import { toNodeListener } from "../http/app.js";
import { createLogger, type Logger } from "../util/logger.js";
import { maskUrlPassword } from "../util/mask-url.js";
import { openAppOrFail } from "./context.js";
import { makeGraceful, type GracefulServer } from "./graceful-server.js";
import { addConfigOptions, configFromFlags } from "./options.js";
import { CliError, type CliIO } from "./io.js";

/** `authsvc serve`: migrate, listen, and shut down gracefully on SIGINT/SIGTERM. */
export function serveCommand(io: CliIO): Command {
  const cmd = new Command("serve")
    .description("run the authentication server")
    .option("--no-migrate", "do not apply pending migrations at start");
  addConfigOptions(cmd, "all");
  return cmd.action(async (flags) => {
    if (!io.onSignal) throw new CliError("serve needs signal handling (run it from the real CLI)");
    const { config } = configFromFlags(flags, io);
    const logger = createLogger(config.logLevel, (line) => io.err(line));
    // Listen for SIGINT/SIGTERM before anything else: a signal during start-up (or right after the
    // banner) must lead to the same clean shutdown, not to the default "killed by signal".
    let onStop!: (signal: string) => void;
    const stopRequested = new Promise<string>((resolve) => { onStop = resolve; });
    const off = io.onSignal((signal) => onStop(signal));
    // `npx authsvc serve` runs us under `npm exec` and `sh -c`: a SIGTERM sent to npx (by a process
    // manager, or `kill`) does not reach this process, which would live on as an orphan holding the
    // port. Started by npm, we follow the launcher: when it goes away we stop as on SIGTERM. Its pid
    // is taken now, not after the banner: a launcher killed in between would otherwise already have
    // been replaced by init as our parent, and we would watch the wrong process forever.
    const unwatch = io.env.npm_command ? watchParent(process.ppid, () => onStop("launcher exited")) : undefined;
    try {
      let app: App;
      try {
        app = await openAppOrFail(config, logger);
      } catch (err) {
        throw new CliError(`could not start: ${(err as Error).message}`);
      }
      let http: GracefulServer;
      let port: number;
      try {
        if (flags.migrate !== false) {
          for (const name of await app.migrate()) logger.info("applied migration", { name });
        }
        await app.start();
        // bcrypt yields the CPU to request handling (README "Performance"); measured by npm run bench.
        logger.debug("password hashing threads lowered", { threads: await lowerHashingPriority() });
        ({ http, port } = await listen(toNodeListener(app.http), config.port, config.host));
      } catch (err) {
        await app.close();
        if (err instanceof CliError) throw err;
        throw new CliError(`could not start: ${(err as Error).message}`);
      }
      printBanner(io, config, port, app.mail.catcher());
      const signal = await stopRequested;
      const cut = await shutDown(http, app, config.shutdownTimeoutMs, logger, signal);
      if (cut) throw new CliError("stopped after the shutdown deadline; some requests were cut off");
    } finally {
      unwatch?.();
      off();
    }
  });
}

/**
 * Serves the h3 app through listhen on exactly the port asked for (0 = any free one). listhen's
 * conveniences for local dev servers are switched off: it must not move to another port when the
 * one asked for is taken or on the browsers' unsafe-port list, must not print or open URLs, and
 * must not exit the process on SIGTERM (autoClose) before the graceful shutdown has run.
 */
async function listen(handler: Parameters<typeof listhen>[0], port: number, host: string): Promise<{ http: GracefulServer; port: number }> {
  const where = `port ${port} on ${host}`;
  let listener: Awaited<ReturnType<typeof listhen>>;
  try {
    listener = await listhen(handler, {
      port: { port, random: port === 0, ports: [], portRange: [] as never, alternativePortRange: [] as never, verbose: false },
      hostname: host,
      showURL: false,
      open: false,
      clipboard: false,
      qr: false,
      autoClose: false,
      isTest: false,
      isProd: true,
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === "EADDRINUSE" || /Unable to find an available port/.test(e.message)) throw new CliError(`${where} is already in use; stop the other process or choose another with --port`);
    if (e.code === "EACCES") throw new CliError(`${where} needs privileges this process does not have; choose a port above 1023 with --port`);
    // get-port-please probes the port first; on an address this machine does not have it finds none.
    if (e.code === "EADDRNOTAVAIL" || e.code === "ENOTFOUND" || /Unable to find a random port/.test(e.message)) throw new CliError(`cannot bind to ${host}: no such local address; check --host`);
    throw new CliError(`cannot listen on ${where}: ${e.message}`);
  }
  const server = listener.server as Server;
  const address = server.address();
  const actualPort = typeof address === "object" && address ? address.port : port;
  const actualHost = typeof address === "object" && address ? address.address : host;
  if ((port !== 0 && actualPort !== port) || !sameHost(actualHost, host)) {
    await listener.close();
    throw new CliError(port !== 0 && actualPort !== port
      ? `${where} cannot be used: it is on the list of ports browsers refuse to connect to; choose another with --port`
      : `cannot bind to ${host}; check --host`);
  }
  return { http: makeGraceful(server), port: actualPort };
}

function sameHost(actual: string, asked: string): boolean {
  if (asked === "localhost") return actual === "127.0.0.1" || actual === "::1";
  return actual === asked || (asked === "0.0.0.0" && actual === "::") || (asked === "::" && actual === "0.0.0.0");
}

/** Calls `onGone` once when `parent` is no longer this process's parent (it exited; we were re-parented). */
function watchParent(parent: number, onGone: () => void): () => void {
  if (parent <= 1) return () => {};
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, 500);
  timer.unref();
  return () => clearInterval(timer);
}

/** `catcher` is where the built-in catcher really listens (with --mail-catcher-port 0, not 0). */
function printBanner(io: CliIO, config: Readonly<Config>, port: number, catcher: { host: string; port: number } | undefined): void {
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  const mail = config.smtpUrl
    ? `mail goes to the SMTP relay ${maskUrlPassword(config.smtpUrl)}`
    : config.mailCatcher
      ? `mail goes to the built-in catcher on ${catcher?.host ?? config.mailCatcherHost}:${catcher?.port ?? config.mailCatcherPort}; read it with \`authsvc tail-mail\``
      : "mail goes nowhere: no SMTP relay and the catcher is off";
  const lines = [
    `authsvc listening on http://${host}:${port}  (${config.mode} mode)`,
    `  API:        http://${host}:${port}${config.apiBasePath}  (public URL ${config.publicUrl})`,
    `  database:   ${maskUrlPassword(config.database)}`,
    `  ${mail}.`,
  ];
  if (config.mode === "development") {
    lines.push(
      "  development mode: loopback only, relaxed defaults.",
      "  WARNING: token-issuing responses include the token in development mode. Never expose this server publicly; use --production.",
    );
  }
  io.err(lines.join("\n"));
}

/**
 * Graceful shutdown (security-bar R5): fail readiness, then serve what already arrived, stop
 * accepting and let in-flight requests finish within the deadline (graceful-server.ts), stop
 * background work (mail worker, catcher), close the database. Resolves true when the deadline cut
 * requests off (the command then exits 1).
 */
async function shutDown(http: GracefulServer, app: App, deadlineMs: number, logger: Logger, signal: string): Promise<boolean> {
  logger.info("shutting down", { signal, deadlineMs });
  app.beginShutdown();
  const cut = await http.stop(deadlineMs);
  await app.close();
  logger.info("stopped", { cut });
  return cut;
}
