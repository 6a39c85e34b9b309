import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { createSession, reissueAccessToken, refreshSession } from "../../src/core/sessions.js";
import { verifyAccessToken } from "../../src/core/access-tokens.js";
import { checkClaimProviders, type ClaimProvider } from "../../src/core/claims.js";

describe("claim providers are checked at start", () => {
  const p = (...keys: string[]): ClaimProvider => ({ keys, compute: async () => Object.fromEntries(keys.map((k) => [k, 1])) });
  it("refuses one of the token's own keys, and a key declared twice", () => {
    expect(() => checkClaimProviders([p("sub")])).toThrow(/own keys/);
    expect(() => checkClaimProviders([p("st-ev")])).toThrow(/own keys/);
    expect(() => checkClaimProviders([p("st-role"), p("st-role")])).toThrow(/twice/);
    expect(() => checkClaimProviders([p("st-role", "st-perm"), p("st-perm")])).toThrow(/twice/);
    expect(checkClaimProviders([p("st-role"), p("st-perm")])).toHaveLength(2);
  });
});

describe.each(backends)("claims the rooms add to access tokens ($name)", (backend) => {
  let t: TestApp;
  let userId: string;
  // A provider whose value is the user's email as stored now, read in the session's transaction.
  // Two claims from one read; a key it did not declare is dropped.
  const emailClaim: ClaimProvider = {
    keys: ["app-email", "app-domain"],
    compute: async (tx, subject) => {
      const email = (await tx.selectFrom("users").select("email").where("id", "=", subject.userId).executeTakeFirst())?.email;
      return { "app-email": email, "app-domain": email?.split("@")[1], "not-declared": "x" };
    },
  };
  const absent: ClaimProvider = { keys: ["never-there"], compute: async () => ({}) };
  // Its start-of-session work runs once, before any compute of that session, and never at refresh.
  const starts: string[] = [];
  const recorder: ClaimProvider = {
    keys: ["first-factor"],
    onSessionStart: async (_tx, subject) => { starts.push(subject.firstFactor); },
    compute: async () => ({ "first-factor": starts.at(-1) }),
  };
  beforeEach(async () => {
    t = await createTestApp({ backend, listen: false });
    (t.app.ctx as { claims: readonly ClaimProvider[] }).claims = checkClaimProviders([emailClaim, absent, recorder]);
    starts.length = 0;
    const up = await signUpWithPassword(t.app.ctx, { email: "ada@example.com", password: "correct horse battery staple" });
    if (up.status !== "OK") throw new Error(up.status);
    userId = up.user.id;
  });
  afterEach(async () => { await t.close(); });

  it("are in the token at sign-in, recomputed at refresh, kept when a token is re-signed, and never override the protocol's keys", async () => {
    const s = await createSession(t.app.ctx, userId, { factor: "emailpassword" });
    expect(s.accessTokenPayload["app-email"]).toBe("ada@example.com");
    expect(s.accessTokenPayload["app-domain"]).toBe("example.com");
    expect(s.accessTokenPayload["first-factor"]).toBe("emailpassword");
    expect("never-there" in s.accessTokenPayload).toBe(false);
    expect("not-declared" in s.accessTokenPayload).toBe(false);
    expect((await verifyAccessToken(t.app.ctx, s.accessToken))["app-email"]).toBe("ada@example.com");

    await t.app.store.db.updateTable("users").set({ email: "ada@example.org" }).where("id", "=", userId).execute();
    const r = await refreshSession(t.app.ctx, s.refreshToken);
    expect(r.accessTokenPayload["app-email"]).toBe("ada@example.org");
    expect(r.accessTokenPayload["app-domain"]).toBe("example.org");
    expect(starts).toEqual(["emailpassword"]);
    expect(r.accessTokenPayload.sub).toBe(userId);

    const re = await reissueAccessToken(t.app.ctx, r.accessTokenPayload, true);
    expect(re.payload["app-email"]).toBe("ada@example.org");
    expect(re.payload["st-ev"].v).toBe(true);
    const replaced = await reissueAccessToken(t.app.ctx, r.accessTokenPayload, true, { "app-email": "x", sub: "someone-else" });
    expect(replaced.payload["app-email"]).toBe("x");
    expect(replaced.payload.sub).toBe(userId);
  });
});
