import type { PurgeRule } from "../../core/purge.js";

/** The purge's rule for passkey options (challenges) past their expiry: small rows, one statement. */
export const expiredOptions: PurgeRule = {
  name: "webauthnOptions",
  run: async (ctx, now) => ctx.store.writeTx(async (tx) => Number((await tx.deleteFrom("webauthn_options").where("expires_at", "<=", now).executeTakeFirst()).numDeletedRows)),
};
