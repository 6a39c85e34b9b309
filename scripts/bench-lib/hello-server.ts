// The ceiling for HTTP: an h3 hello-world served by `startHttpServer`, the very listener stack
// `authsvc serve` uses (node:http on the exact port asked for, request ids, the per-request error guard).
// Bundled and started by servers.mjs; prints "listening on http://127.0.0.1:PORT" on stderr.
import { createApp, createRouter, defineEventHandler } from "h3";
import { startHttpServer } from "../../src/http/server.js";
import { createLogger } from "../../src/util/logger.js";

const app = createApp();
app.use(createRouter().get("/", defineEventHandler(() => ({ status: "OK", isVerified: false }))));
const server = await startHttpServer(app, { port: 0, host: "127.0.0.1", bodyLimit: 16_384, logger: createLogger("warn") });
process.stderr.write(`listening on http://127.0.0.1:${server.port}\n`);
process.on("SIGTERM", async () => { await server.stop(1000); process.exit(0); });
