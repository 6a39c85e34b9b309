import type { Server } from "node:http";
import { Command } from "commander";
import { listen } from "listhen";
import { createApp } from "../app.js";
import { toNodeListener } from "../http/app.js";
import { createLogger } from "../util/logger.js";
import { addConfigOptions, configFromFlags } from "./options.js";
import { CliError, type CliIO } from "./io.js";

/** `authsvc serve`: migrate, listen, and shut down gracefully on SIGINT/SIGTERM. */
export function serveCommand(io: CliIO): Command {
  const cmd = new Command("serve")
    .description("run the authentication server")
    .option("--no-migrate", "do not apply pending migrations at start");
  addConfigOptions(cmd, "all");
  return cmd.action(async (flags) => {
    const { config } = configFromFlags(flags, io);
    const logger = createLogger(config.logLevel, (line) => io.err(line));
    const app = await createApp(config, { logger });
    let server: Server | undefined;
    try {
      if (flags.migrate !== false) {
        for (const name of await app.migrate()) logger.info("applied migration", { name });
      }
      await app.start();
      const listener = await listen(toNodeListener(app.http), {
        port: { port: config.port, random: config.port === 0, alternativePortRange: [], ports: [] } as never,
        hostname: config.host,
        showURL: false,
        qr: false,
        autoClose: false,
        isTest: true, // keeps listhen quiet and stops it from picking another port or opening a browser
      });
      server = listener.server as Server;
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : config.port;
      if (config.port !== 0 && port !== config.port) {
        await listener.close();
        throw new CliError(`port ${config.port} on ${config.host} is in use; choose another with --port`);
      }
      banner(io, config, port);
    } catch (err) {
      await app.close();
      if (err instanceof CliError) throw err;
      throw new CliError(`could not start: ${(err as Error).message}`);
    }
    const code = await waitForShutdown(io, server, app, config.shutdownTimeoutMs, logger);
    if (code !== 0) throw new CliError("stopped after the shutdown deadline; some requests were cut off", code);
  });
}

function banner(io: CliIO, config: ReturnType<typeof configFromFlags>["config"], port: number): void {
  const lines = [
    `authsvc listening on http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}  (${config.mode} mode)`,
    `  API:      ${config.publicUrl}${config.apiBasePath}`,
    `  database: ${config.database.replace(/:[^:@/]*@/, ":****@")}`,
  ];
  if (config.mode === "development") {
    lines.push(
      "  development mode: binds to loopback, relaxed defaults.",
      config.mailCatcher && !config.smtpUrl
        ? `  mail goes to the built-in catcher on ${config.mailCatcherHost}:${config.mailCatcherPort}; read it with \`authsvc tail-mail\`.`
        : `  mail goes to ${config.smtpUrl ? "the configured SMTP relay" : "nowhere (no relay, catcher off)"}.`,
      "  WARNING: token-issuing responses include the token in development mode. Never expose this server publicly; use --production.",
    );
  }
  io.err(lines.join("\n"));
}

/**
 * Graceful shutdown: fail readiness, stop accepting, let in-flight requests finish within the
 * deadline (idle keep-alive sockets are closed at once), stop background work, close the database.
 * Exits 0, or 1 when the deadline cut requests off.
 */
function waitForShutdown(io: CliIO, server: Server, app: Awaited<ReturnType<typeof createApp>>, deadlineMs: number, logger: ReturnType<typeof createLogger>): Promise<number> {
  return new Promise((resolve) => {
    let stopping = false;
    if (!io.onSignal) throw new Error("serve needs signal handling");
    const off = io.onSignal(async (signal) => {
      if (stopping) return;
      stopping = true;
      logger.info("shutting down", { signal, deadlineMs });
      app.beginShutdown();
      let cut = false;
      const timer = setTimeout(() => { cut = true; server.closeAllConnections(); }, deadlineMs);
      timer.unref();
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeIdleConnections();
      });
      clearTimeout(timer);
      await app.close();
      off();
      logger.info("stopped", { cut });
      resolve(cut ? 1 : 0);
    });
  });
}
