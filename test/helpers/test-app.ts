import { createApp, type App, type AppOverrides } from "../../src/app.js";
import { testConfig, type Config } from "../../src/config.js";
import { startHttpServer, type HttpServer } from "../../src/http/server.js";
import { createManualClock } from "../../src/util/clock.js";
import type { Logger } from "../../src/util/logger.js";
import type { Backend } from "./backends.js";
import { sqliteBackend } from "./backends.js";

export interface TestApp {
  app: App;
  /** Base URL of the real HTTP listener, e.g. http://127.0.0.1:54321 */
  url: string;
  clock: ReturnType<typeof createManualClock>;
  config: Config;
  close(): Promise<void>;
}

/**
 * A migrated app on a fresh database (SQLite file or PostgreSQL schema), a fast hash cost, an
 * injectable clock and a real HTTP listener on port 0.
 */
export async function createTestApp(opts: { backend?: Backend; config?: Partial<Config>; start?: boolean; listen?: boolean; logger?: Logger; configSources?: AppOverrides["configSources"] } = {}): Promise<TestApp> {
  const db = await (opts.backend ?? sqliteBackend).create();
  const clock = createManualClock(Date.now());
  const config = testConfig({ database: db.url, ...opts.config });
  const app = await createApp(config, { clock, logger: opts.logger, configSources: opts.configSources });
  await app.migrate();
  if (opts.start) await app.start();
  // The exact listener stack `serve` uses (node:http and everything around the app), on port 0.
  let server: HttpServer | undefined;
  let url = "";
  if (opts.listen !== false) {
    server = await startHttpServer(app.http, { port: 0, host: "127.0.0.1", bodyLimit: config.bodyLimit, logger: app.ctx.logger });
    url = `http://127.0.0.1:${server.port}`;
  }
  return {
    app,
    url,
    clock,
    config,
    close: async () => {
      // No grace in tests: whatever is still open (a hanging client, a stream) is cut at once.
      if (server) await server.stop(0);
      await app.close();
      await db.drop();
    },
  };
}
