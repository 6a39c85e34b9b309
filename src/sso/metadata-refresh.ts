import type { BackgroundWork, BackgroundWorker } from "../core/background.js";
import type { CoreContext } from "../core/context.js";
import { fetchMetadata } from "./metadata-fetch.js";

/**
 * SAML connections whose IdP metadata came from a URL read it again every --sso-metadata-refresh,
 * so an IdP's new signing certificate (a rollover) is taken without the operator: background work
 * in the process that runs it (every instance may; the result is the same). A failed read
 * (unreachable, not metadata, another entity id) keeps the last good copy, is logged, and is kept
 * in `metadata_error` for `authsvc orgs sso list`; it is tried again after RETRY_MS.
 */
const TICK_MS = 60_000;
const RETRY_MS = 15 * 60_000;

export const metadataRefresh: BackgroundWork = {
  id: "sso-metadata",
  worker: (ctx) => createRefreshWorker(ctx),
  forwardKicks: () => () => {},
};

function createRefreshWorker(ctx: CoreContext): BackgroundWorker {
  const failedAt = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<{ sent: number; failed: number }> | undefined;
  const runOnce = () => (pass ??= refreshDue(ctx, failedAt).finally(() => { pass = undefined; }));
  const tick = () => { runOnce().catch((err) => ctx.logger.warn("SAML metadata refresh pass failed", { reason: (err as Error).message })); };
  return {
    start() { timer ??= setInterval(tick, TICK_MS); timer.unref(); },
    kick: tick,
    runOnce,
    async stop() { if (timer) clearInterval(timer); timer = undefined; await pass?.catch(() => {}); },
  };
}

async function refreshDue(ctx: CoreContext, failedAt: Map<string, number>): Promise<{ sent: number; failed: number }> {
  const now = ctx.clock.now();
  const rows = await ctx.store.db.selectFrom("sso_connections").selectAll().where("kind", "=", "saml")
    .where((eb) => eb.or([eb("metadata_source", "like", "http://%"), eb("metadata_source", "like", "https://%")])).execute();
  let sent = 0;
  let failed = 0;
  // The XML reader loads only when some connection has metadata by URL (docs/performance.md, "Memory").
  const { readIdpMetadata } = rows.length ? await import("./saml-metadata.js") : { readIdpMetadata: undefined };
  for (const c of rows) {
    const last = Number(c.metadata_refreshed_at ?? c.created_at);
    if (last + ctx.config.ssoMetadataRefreshMs > now || (failedAt.get(c.id) ?? -Infinity) + RETRY_MS > now) continue;
    try {
      const m = await readIdpMetadata!(await fetchMetadata(c.metadata_source));
      if (m.entityId !== c.idp_entity_id) throw new Error(`the metadata now names another IdP (${m.entityId}); add a new connection for it`);
      await ctx.store.db.updateTable("sso_connections").set({ idp_sso_url: m.ssoUrl, idp_certs: JSON.stringify(m.certs), metadata_refreshed_at: now, metadata_error: null }).where("id", "=", c.id).execute();
      failedAt.delete(c.id);
      sent++;
    } catch (err) {
      const reason = (err instanceof Error ? err.message : String(err)).slice(0, 300);
      failedAt.set(c.id, now);
      ctx.logger.warn("SAML metadata refresh failed: the last good copy stays in use", { connection: c.id, source: c.metadata_source, reason });
      await ctx.store.db.updateTable("sso_connections").set({ metadata_error: reason }).where("id", "=", c.id).execute();
      failed++;
    }
  }
  return { sent, failed };
}
