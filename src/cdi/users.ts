import { AuthError } from "../core/errors.js";
import { accountsOf } from "../core/account-operations.js";
import { canonicalEmail } from "../core/emails.js";
import { verifyEmailWithToken } from "../core/email-verification.js";
import { listUserPage, findUsersByEmail } from "../core/user-directory.js";
import { deleteUser, getUser, toUserJson } from "../core/users.js";
import { insertEvent } from "../store/events.js";
import * as tokens from "../store/one-time-tokens.js";
import { unmarkEmailVerified } from "../store/user-pages.js";
import * as users from "../store/users.js";
import { createSecretToken, hashToken } from "../util/random.js";
import { updateEmailPasswordUser } from "./email-password.js";
import { bool, CdiError, optStr, str, type CdiCall, type CdiRoute } from "./http.js";

const email = (c: CdiCall) => canonicalEmail(str(c, "email"));

/** The core's user routes, email verification and the public tenant (supertokens-cdi-notes §1.3, §1.10, §1.12). */
export const userRoutes: CdiRoute[] = [
  {
    method: "GET", path: "/user/id",
    handler: async (c) => {
      const u = await getUser(c.ctx, str(c, "userId"));
      return u ? { status: "OK", user: toUserJson(u) } : { status: "UNKNOWN_USER_ID_ERROR" };
    },
  },
  {
    method: "GET", path: "/users/by-accountinfo", tenant: true,
    handler: async (c) => {
      const sets: string[][] = [];
      const byId = new Map<string, ReturnType<typeof toUserJson>>();
      const mail = optStr(c, "email");
      if (mail !== undefined) {
        const found = (await findUsersByEmail(c.ctx, mail)).map(toUserJson);
        found.forEach((u) => byId.set(u.id, u));
        sets.push(found.map((u) => u.id));
      }
      const tpId = optStr(c, "thirdPartyId"), tpUser = optStr(c, "thirdPartyUserId");
      if (tpId !== undefined && tpUser !== undefined) {
        const identity = await accountsOf(c.ctx, "providerIdentities").find(c.ctx.store.db, tpId, tpUser);
        const u = identity ? await getUser(c.ctx, identity.userId) : undefined;
        if (u) byId.set(u.id, toUserJson(u));
        sets.push(u ? [u.id] : []);
      }
      if (optStr(c, "phoneNumber") !== undefined) sets.push([]); // authsvc keeps no phone numbers
      const union = bool(c, "doUnionOfAccountInfo", false);
      const ids = sets.length === 0 ? [] : union ? [...new Set(sets.flat())] : sets[0].filter((id) => sets.every((s) => s.includes(id)));
      const list = ids.map((id) => byId.get(id)!).sort((a, b) => a.timeJoined - b.timeJoined);
      return { status: "OK", users: list };
    },
  },
  {
    method: "GET", path: "/users", tenant: true,
    handler: async (c) => {
      if ((optStr(c, "timeJoinedOrder") ?? "ASC") !== "ASC") throw new CdiError(400, "timeJoinedOrder DESC is not implemented by authsvc");
      const limit = Number(optStr(c, "limit") ?? "100");
      try {
        const page = await listUserPage(c.ctx, { cursor: optStr(c, "paginationToken"), limit, search: optStr(c, "email") });
        return { status: "OK", users: page.users.map(toUserJson), ...(page.nextCursor ? { nextPaginationToken: page.nextCursor } : {}) };
      } catch (err) {
        if (err instanceof AuthError) throw new CdiError(400, err.message);
        throw err;
      }
    },
  },
  {
    method: "GET", path: "/users/count", tenant: true,
    handler: async (c) => {
      const r = await c.ctx.store.db.selectFrom("users").select((eb) => eb.fn.countAll<number>().as("n")).where("primary_user_id", "is", null).executeTakeFirstOrThrow();
      return { status: "OK", count: Number(r.n) };
    },
  },
  {
    method: "POST", path: "/user/remove",
    handler: async (c) => {
      try {
        await deleteUser(c.ctx, str(c, "userId"), "cdi");
      } catch (err) {
        if (err instanceof AuthError) throw new CdiError(400, err.message);
        throw err;
      }
      return { status: "OK" };
    },
  },
  {
    method: "PUT", path: "/recipe/user",
    handler: (c) => {
      const rid = c.event.node.req.headers.rid;
      if (rid === "emailpassword") return updateEmailPasswordUser(c);
      throw new CdiError(400, `PUT /recipe/user for rid ${String(rid)} is not implemented by authsvc`);
    },
  },
  {
    method: "GET", path: "/recipe/multitenancy/tenant/v2", tenant: true,
    // The public tenant only; its providers are the SDK's own (authsvc's are its API's), every first factor allowed.
    handler: (c) => ({ status: "OK", tenantId: c.tenantId, thirdParty: { providers: [] }, coreConfig: {} }),
  },
  {
    method: "POST", path: "/recipe/user/email/verify/token", tenant: true,
    handler: async (c) => {
      const userId = str(c, "userId"), address = email(c);
      const { ctx } = c;
      const now = ctx.clock.now();
      const r = await ctx.store.writeTx(async (tx) => {
        if (!(await users.findUserById(tx, userId))) return undefined;
        if (await users.isEmailVerified(tx, userId, address)) return { status: "EMAIL_ALREADY_VERIFIED_ERROR" };
        const token = createSecretToken();
        const tokenHash = hashToken(token);
        const expiresAt = now + ctx.config.emailVerificationTokenLifetimeMs;
        await tokens.insertToken(tx, { token_hash: tokenHash, purpose: "email_verification", user_id: userId, email: address, created_at: now, expires_at: expiresAt });
        await insertEvent(tx, { at: now, type: "email_verification.token_created", userId, data: { email: address, tokenHashPrefix: tokenHash.slice(0, 12), expiresAt, source: "cdi" } });
        return { status: "OK", token };
      });
      if (!r) throw new CdiError(400, `Unknown user id: ${userId}`);
      return r;
    },
  },
  {
    method: "POST", path: "/recipe/user/email/verify", tenant: true,
    handler: async (c) => {
      const token = str(c, "token");
      const found = await tokens.findToken(c.ctx.store.db, hashToken(token), "email_verification");
      if (!found) return { status: "EMAIL_VERIFICATION_INVALID_TOKEN_ERROR" };
      // The SDK checked its own session rules; the token names its user.
      return verifyEmailWithToken(c.ctx, token, { sessionUserId: found.user_id, source: "cdi" });
    },
  },
  {
    method: "GET", path: "/recipe/user/email/verify",
    handler: async (c) => ({ status: "OK", isVerified: await users.isEmailVerified(c.ctx.store.db, str(c, "userId"), email(c)) }),
  },
  {
    method: "POST", path: "/recipe/user/email/verify/token/remove", tenant: true,
    handler: async (c) => {
      const userId = str(c, "userId"), address = email(c);
      await c.ctx.store.writeTx((tx) => tokens.deleteUserTokens(tx, userId, "email_verification", address));
      return { status: "OK" };
    },
  },
  {
    method: "POST", path: "/recipe/user/email/verify/remove",
    handler: async (c) => {
      const userId = str(c, "userId"), address = email(c);
      const { ctx } = c;
      const now = ctx.clock.now();
      await ctx.store.writeTx(async (tx) => {
        if (await unmarkEmailVerified(tx, userId, address)) await insertEvent(tx, { at: now, type: "user.email_unverified", userId, data: { email: address, source: "cdi" } });
      });
      return { status: "OK" };
    },
  },
];
