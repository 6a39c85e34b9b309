import type { CoreContext } from "../core/context.js";

/** What the HTTP layer is given by the composition root (app.ts). */
export interface HttpDeps {
  ctx: CoreContext;
  readiness(): Promise<{ ready: boolean; reason?: string }>;
}
