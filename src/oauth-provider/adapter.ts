import type { CoreContext } from "../core/context.js";
import { clientMetadata } from "./clients.js";
import * as repo from "./store.js";

/** Models whose records belong to a grant: revoking the grant deletes them all (revokeByGrantId). */
const GRANTABLE = new Set(["AccessToken", "AuthorizationCode", "RefreshToken", "DeviceCode", "BackchannelAuthenticationRequest"]);
/** Dynamically registered clients are forgotten this long after their last use. */
export const REGISTERED_CLIENT_IDLE_MS = 30 * 86_400_000;
const TOUCH_EVERY_MS = 86_400_000;

type Payload = Record<string, unknown> & {
  grantId?: string; uid?: string; userCode?: string; accountId?: string; clientId?: string; jti?: string;
  session?: { accountId?: unknown }; result?: { login?: { accountId?: unknown } };
};

/** Whose record it is: a token's or grant's account, an interaction's signed-in (or just signed-in) account. */
const accountOf = (p: Payload): string | null => {
  const id = p.accountId ?? p.session?.accountId ?? p.result?.login?.accountId;
  return typeof id === "string" ? id : null;
};

/**
 * oidc-provider's storage interface (upsert, find, findByUid, findByUserCode, consume, destroy,
 * revokeByGrantId) on the provider's one table, on SQLite and PostgreSQL alike. A record past its
 * expiry is not found (expired rows are swept in batches). A consumed record is still found, with
 * `consumed` set: that is how the library recognises a second use of a code or a rotated refresh
 * token and ends the whole grant. Clients the operator created come from oauth_clients; clients
 * that registered themselves are records of the model "Client", kept while they are used.
 */
export function createAdapterClass(ctx: CoreContext) {
  let lastSweep = 0;
  const sweep = async () => {
    const now = ctx.clock.now();
    if (now - lastSweep < 60_000) return;
    lastSweep = now;
    await ctx.store.writeTx((tx) => repo.deleteExpiredRecords(tx, now, 500));
  };
  const toPayload = (row: Awaited<ReturnType<typeof repo.findRecord>>): Payload | undefined => {
    if (!row) return undefined;
    if (row.expires_at !== null && Number(row.expires_at) <= ctx.clock.now()) return undefined;
    const payload = JSON.parse(row.payload) as Payload;
    return row.consumed_at === null ? payload : { ...payload, consumed: Math.floor(Number(row.consumed_at) / 1000) };
  };

  return class KyselyAdapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
      const now = ctx.clock.now();
      const expires = this.model === "Client" ? now + REGISTERED_CLIENT_IDLE_MS : typeof expiresIn === "number" ? now + expiresIn * 1000 : null;
      await ctx.store.writeTx((tx) => repo.upsertRecord(tx, {
        model: this.model, id, payload: JSON.stringify(payload),
        grant_id: GRANTABLE.has(this.model) && typeof payload.grantId === "string" ? payload.grantId : null,
        uid: typeof payload.uid === "string" ? payload.uid : null,
        user_code: typeof payload.userCode === "string" ? payload.userCode : null,
        account_id: accountOf(payload),
        client_id: this.model === "Client" ? id : typeof payload.clientId === "string" ? payload.clientId : null,
        expires_at: expires, consumed_at: null, created_at: now,
      }));
      void sweep().catch((err) => ctx.logger.warn("oauth: sweeping expired records failed", { error: String(err) }));
    }

    async find(id: string): Promise<Payload | undefined> {
      if (this.model === "Client") {
        const operator = await repo.findClient(ctx.store.db, id);
        if (operator) return clientMetadata(operator) as Payload;
        const row = await repo.findRecord(ctx.store.db, "Client", id);
        const found = toPayload(row);
        // A registered client in use stays: its expiry moves on, at most once a day.
        if (found && row && Number(row.expires_at) - ctx.clock.now() < REGISTERED_CLIENT_IDLE_MS - TOUCH_EVERY_MS) await this.upsert(id, found);
        return found;
      }
      return toPayload(await repo.findRecord(ctx.store.db, this.model, id));
    }

    async findByUid(uid: string): Promise<Payload | undefined> {
      return toPayload(await repo.findRecordBy(ctx.store.db, this.model, "uid", uid));
    }

    async findByUserCode(userCode: string): Promise<Payload | undefined> {
      return toPayload(await repo.findRecordBy(ctx.store.db, this.model, "user_code", userCode));
    }

    async consume(id: string): Promise<void> {
      await ctx.store.writeTx((tx) => repo.consumeRecord(tx, this.model, id, ctx.clock.now()));
    }

    async destroy(id: string): Promise<void> {
      await ctx.store.writeTx((tx) => repo.deleteRecord(tx, this.model, id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await ctx.store.writeTx((tx) => repo.deleteByGrant(tx, grantId));
    }
  };
}
