import type { CoreContext } from "../core/context.js";
import type { DevMailFeed } from "./pages/dev-mail-events.js";

/** What the HTTP layer is given by the composition root (app.ts). */
export interface HttpDeps {
  ctx: CoreContext;
  readiness(): Promise<{ ready: boolean; reason?: string }>;
  /** Set when /metrics is served on the API port (--metrics without --metrics-port). */
  metricsEndpoint?: { render(): Promise<{ contentType: string; body: string }> };
  /** The development inbox's live feed (development mode only). */
  devMailFeed?: DevMailFeed;
}
