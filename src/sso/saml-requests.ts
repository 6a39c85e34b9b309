import type { CacheProvider } from "@node-saml/node-saml";
import type { CoreContext } from "../core/context.js";
import type { PurgeRule } from "../core/purge.js";

/**
 * The AuthnRequests a SAML connection sent, in the database (sso_requests) rather than node-saml's
 * per-process memory, so the answer is accepted by whichever instance the IdP posts it to, and
 * after a restart. A request lives REQUEST_TTL_MS (the IdP's sign-in, MFA included, must end by
 * then); node-saml reads it once to check the answer's InResponseTo and removes it, so one answer
 * is accepted once. Expired rows are forgotten when read and by the purge job.
 */
export const REQUEST_TTL_MS = 60 * 60_000;

export function requestCache(ctx: CoreContext, connectionId: string): CacheProvider {
  return {
    async saveAsync(key, value) {
      const now = ctx.clock.now();
      await ctx.store.db.insertInto("sso_requests").values({ connection_id: connectionId, request_id: key, issued: value, expires_at: now + REQUEST_TTL_MS })
        .onConflict((oc) => oc.columns(["connection_id", "request_id"]).doNothing()).execute();
      return { createdAt: now, value };
    },
    async getAsync(key) {
      const r = await ctx.store.db.selectFrom("sso_requests").select(["issued", "expires_at"]).where("connection_id", "=", connectionId).where("request_id", "=", key).executeTakeFirst();
      return r && Number(r.expires_at) > ctx.clock.now() ? r.issued : null;
    },
    async removeAsync(key) {
      if (key === null) return null;
      const r = await ctx.store.db.deleteFrom("sso_requests").where("connection_id", "=", connectionId).where("request_id", "=", key).executeTakeFirst();
      return Number(r.numDeletedRows) > 0 ? key : null;
    },
  };
}

/** Requests no answer can use any more. */
export const expiredSamlRequests: PurgeRule = {
  name: "samlRequests",
  async run(ctx, now, limit) {
    const ids = await ctx.store.db.selectFrom("sso_requests").select(["connection_id", "request_id"]).where("expires_at", "<=", now).limit(limit).execute();
    let n = 0;
    for (const r of ids) n += Number((await ctx.store.db.deleteFrom("sso_requests").where("connection_id", "=", r.connection_id).where("request_id", "=", r.request_id).executeTakeFirst()).numDeletedRows);
    return n;
  },
};
