import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "../util/logger.js";
import type { Metrics } from "./metrics.js";

export interface MetricsServer {
  host: string;
  port: number;
  close(): Promise<void>;
}

/**
 * A listener of its own for `--metrics-port`: GET (or HEAD) /metrics and nothing else, on
 * `--metrics-host` (loopback by default), so the API port never shows metrics and a firewall or a
 * scrape-only network can guard this one.
 */
export async function startMetricsServer(metrics: Metrics, host: string, port: number, logger: Logger): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/metrics") { res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not Found\n"); return; }
    if (req.method !== "GET" && req.method !== "HEAD") { res.writeHead(405, { allow: "GET, HEAD" }).end(); return; }
    metrics.render().then(
      ({ contentType, body }) => { res.writeHead(200, { "content-type": contentType, "cache-control": "no-store" }).end(req.method === "HEAD" ? undefined : body); },
      (err) => { logger.error("metrics scrape failed", { err }); res.writeHead(500).end(); },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => { server.off("error", reject); resolve(); });
  }).catch((err: NodeJS.ErrnoException) => {
    throw new Error(err.code === "EADDRINUSE" ? `metrics port ${port} on ${host} is already in use; choose another with --metrics-port` : `cannot listen for metrics on ${host}:${port}: ${err.message}`);
  });
  const addr = server.address() as AddressInfo;
  return {
    host: addr.address,
    port: addr.port,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
