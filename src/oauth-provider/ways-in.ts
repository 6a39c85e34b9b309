import { insertEvent } from "../store/events.js";
import type { WayIn } from "../core/ways-in.js";
import * as repo from "./store.js";

/**
 * The provider's way into an account: the grants people gave apps (consent), each with its codes,
 * refresh tokens and access-token records, and the provider's own sessions and interactions of the
 * account. A grant is held by the person as a whole (the person consented, whichever login they had
 * signed in with), so every event that names the person ends it: its records go in the event's
 * transaction, the app's refresh token is refused from then on, and introspection answers
 * `active: false` for its access tokens (JWTs included: provider.ts checks the grant). A backend
 * that verifies those JWTs by signature alone accepts one until it expires (access-token-lifetime).
 */
export const oauthGrantWays: WayIn = {
  id: "oauth-grants",
  names: { one: "connected app", many: "connected apps" },
  list: async (db, ctx, target) => (await repo.listAccountGrants(db, accountsOf(target), ctx.clock.now()))
    .map((g) => ({ id: g.id, since: Number(g.created_at), until: g.expires_at === null ? null : Number(g.expires_at) })),
  async end(tx, _ctx, target, how) {
    const accounts = accountsOf(target);
    const live = await repo.listAccountGrants(tx, accounts, how.now);
    for (const g of live) await repo.deleteByGrant(tx, g.id);
    await repo.deleteAccountRecords(tx, accounts);
    for (const g of live) await insertEvent(tx, { at: how.now, type: "oauth.grant_revoked", userId: target.personId, data: { grantId: g.id, clientId: g.client_id, source: how.source, reason: how.reason } });
    return live.map((g) => g.id);
  },
};

/**
 * The account ids the provider may know the person by: the person's id (what `sub` is at consent),
 * and the logins named (a person joined into another keeps the grants it gave under its old id).
 */
const accountsOf = (target: { personId: string; logins: readonly string[] }) => [...new Set([target.personId, ...target.logins])];
