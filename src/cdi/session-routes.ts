import { setResponseHeaders } from "h3";
import { insertEvent } from "../store/events.js";
import * as kernel from "../store/sessions.js";
import { bool, CdiError, obj, optStr, str, strList, type CdiRoute } from "./http.js";
import { CDI_VERSIONS } from "./mount.js";
import { createCdiSession, refreshCdiSession, regenerateCdiToken, verifyCdiSession } from "./sessions.js";
import * as store from "./store.js";
import { checkAppPayload } from "./tokens.js";

const SESSION_GONE = { status: "UNAUTHORISED", message: "Session does not exist." };

/** The core's bootstrap routes and its session recipe (supertokens-cdi-notes §1.0, §1.4). */
export const sessionRoutes: CdiRoute[] = [
  { method: "GET", path: "/apiversion", unversioned: true, handler: () => ({ versions: [...CDI_VERSIONS] }) },
  { method: "GET", path: "/hello", open: true, handler: () => "Hello" },
  {
    // The SDK verifies access tokens itself against these keys (jose's remote JWKS, no api-key).
    method: "GET", path: "/.well-known/jwks.json", open: true,
    handler: async ({ ctx, event }) => {
      setResponseHeaders(event, { "cache-control": "max-age=60, must-revalidate" });
      return ctx.keys.jwks();
    },
  },
  {
    method: "POST", path: "/recipe/session", tenant: true,
    handler: (c) => {
      if (c.body.useDynamicSigningKey === false) throw new CdiError(400, "useDynamicSigningKey false (a static signing key) is not implemented by authsvc");
      return createCdiSession(c.ctx, {
        userId: str(c, "userId"), payload: checkAppPayload(obj(c, "userDataInJWT")!), data: obj(c, "userDataInDatabase")!,
        antiCsrf: bool(c, "enableAntiCsrf", false), tenantId: c.tenantId,
      });
    },
  },
  {
    method: "POST", path: "/recipe/session/verify",
    handler: (c) => verifyCdiSession(c.ctx, { accessToken: str(c, "accessToken"), doAntiCsrfCheck: bool(c, "doAntiCsrfCheck", false), antiCsrfToken: optStr(c, "antiCsrfToken"), checkDatabase: bool(c, "checkDatabase", false) }),
  },
  {
    method: "POST", path: "/recipe/session/refresh",
    handler: (c) => refreshCdiSession(c.ctx, { refreshToken: str(c, "refreshToken"), antiCsrfToken: optStr(c, "antiCsrfToken"), enableAntiCsrf: bool(c, "enableAntiCsrf", false) }),
  },
  {
    method: "POST", path: "/recipe/session/regenerate",
    handler: (c) => {
      const payload = obj(c, "userDataInJWT", { optional: true });
      return regenerateCdiToken(c.ctx, { accessToken: str(c, "accessToken"), payload: payload && checkAppPayload(payload) });
    },
  },
  {
    method: "GET", path: "/recipe/session",
    handler: async (c) => {
      const s = await store.findCdiSession(c.ctx.store.db, str(c, "sessionHandle"));
      const now = c.ctx.clock.now();
      if (!s || s.revoked_at !== null || s.expires_at <= now) return SESSION_GONE;
      return {
        status: "OK", sessionHandle: s.handle, userId: s.primary_user_id ?? s.user_id, recipeUserId: s.user_id,
        sessionDataInDatabase: JSON.parse(s.session_data ?? "{}"), userDataInJWT: JSON.parse(s.jwt_payload ?? "{}"),
        expiry: s.expires_at, timeCreated: s.created_at, tenantId: s.tenant_id ?? "public",
      };
    },
  },
  {
    method: "GET", path: "/recipe/session/user", tenant: true,
    handler: async (c) => {
      const userId = str(c, "userId");
      const linked = bool(c, "fetchSessionsForAllLinkedAccounts", true);
      const ids = linked ? await store.loginsOf(c.ctx.store.db, userId) : [userId];
      return { status: "OK", sessionHandles: await store.liveHandlesOf(c.ctx.store.db, ids, c.ctx.clock.now()) };
    },
  },
  {
    method: "POST", path: "/recipe/session/remove", tenant: true,
    handler: async (c) => {
      const userId = optStr(c, "userId");
      const handles = strList(c, "sessionHandles");
      if (userId === undefined && handles === undefined) throw new CdiError(400, "Invalid JSON input: one of userId or sessionHandles must be given");
      const linked = bool(c, "revokeSessionsForLinkedAccounts", true);
      const { ctx } = c;
      const now = ctx.clock.now();
      const revoked = await ctx.store.writeTx(async (tx) => {
        const targets = userId !== undefined ? await store.liveHandlesOf(tx, linked ? await store.loginsOf(tx, userId) : [userId], now) : handles!;
        const done: string[] = [];
        for (const handle of targets) {
          const s = await store.findCdiSession(tx, handle);
          if (!s || !(await kernel.revokeSession(tx, handle, now, "signout"))) continue;
          await insertEvent(tx, { at: now, type: "session.revoked", userId: s.primary_user_id ?? s.user_id, data: { sessionHandle: handle, reason: "signout", source: "cdi" } });
          done.push(handle);
        }
        return done;
      });
      return { status: "OK", sessionHandlesRevoked: revoked };
    },
  },
  { method: "PUT", path: "/recipe/session/data", handler: (c) => updateSession(c, "session_data", obj(c, "userDataInDatabase")!) },
  { method: "PUT", path: "/recipe/jwt/data", handler: (c) => updateSession(c, "jwt_payload", checkAppPayload(obj(c, "userDataInJWT")!)) },
];

async function updateSession(c: Parameters<CdiRoute["handler"]>[0], column: "session_data" | "jwt_payload", value: Record<string, unknown>) {
  const handle = str(c, "sessionHandle");
  const now = c.ctx.clock.now();
  const ok = await c.ctx.store.writeTx(async (tx) => {
    const s = await store.findCdiSession(tx, handle);
    if (!s || s.revoked_at !== null || s.expires_at <= now) return false;
    await store.updateCdiSession(tx, handle, { [column]: JSON.stringify(value) });
    return true;
  });
  return ok ? { status: "OK" } : SESSION_GONE;
}
