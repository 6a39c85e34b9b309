import type { ConfigRow } from "../config/types.js";
import type { CoreContext } from "../core/context.js";
import type { OutageKind } from "../store/outage.js";
import type { DevMailFeed } from "./pages/dev-mail-events.js";
import type { HttpTables } from "./tables.js";

/**
 * What /readyz reports. `workers` is set when the server runs several HTTP workers
 * (`serve --workers N`): how many of them are ready, as the primary sees it.
 */
export interface Readiness { ready: boolean; reason?: string; workers?: { ready: number; total: number } }

/** What the HTTP layer is given by the composition root (app.ts). */
export interface HttpDeps {
  ctx: CoreContext;
  /** The route tables, pages, OpenAPI areas and mounts, assembled from the rooms (src/rooms.ts). */
  tables: HttpTables;
  readiness(): Promise<Readiness>;
  /** Hears each request that failed because the database is away, read-only or full (ops/outage-monitor.ts). */
  noteOutage?(kind: OutageKind, err: unknown): void;
  /** Set when /metrics is served on the API port (--metrics without --metrics-port). */
  metricsEndpoint?: { render(): Promise<{ contentType: string; body: string }> };
  /** The effective settings, secrets already masked, and where each came from (the dashboard's configuration page). */
  settings?(): { configFile?: string; rows: ConfigRow[] };
  /** The development inbox's live feed (development mode only). */
  devMailFeed?: DevMailFeed;
}
