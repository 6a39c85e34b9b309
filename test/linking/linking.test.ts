import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type App } from "../../src/app.js";
import { testConfig } from "../../src/config.js";
import { createSession } from "../../src/core/sessions.js";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { backends } from "../helpers/backends.js";
import { waitForCaughtMail } from "../helpers/mail.js";
import { CONFIDENTIAL, signInWithProvider, startOidcProvider, type TestIdp } from "../helpers/oidc-provider.js";
import { credentials, decodeFrontToken, jwtPayload, modeHeaders, postJson, postWithSession, readTokens, refreshAndRead, signUp, type Tokens } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

/** The reasons exactly as supertokens-node sends them (the prebuilt UI shows them verbatim). */
const REASON = {
  EP_SIGN_UP: "Cannot sign up due to security reasons. Please try logging in, use a different login method or contact support. (ERR_CODE_007)",
  EP_SIGN_IN: "Cannot sign in due to security reasons. Please try resetting your password, use a different login method or contact support. (ERR_CODE_008)",
  TP_SIGN_IN: "Cannot sign in / up due to security reasons. Please try a different login method or contact support. (ERR_CODE_004)",
  TP_SIGN_UP: "Cannot sign in / up due to security reasons. Please try a different login method or contact support. (ERR_CODE_006)",
  EP_SIGN_UP_LINK_UNVERIFIED: "Cannot sign in / up due to security reasons. Please contact support. (ERR_CODE_013)",
};

/**
 * Account linking in verified-email mode (recipes notes §4.2), scenario by scenario, through the
 * real HTTP stack, a real OpenID provider and real SMTP into the catcher (production mode: no
 * answer carries a token; links come from the mail).
 */
describe.each(backends)("account linking ($name)", (backend) => {
  let idp: TestIdp;
  let t: TestApp;
  /** A second app on the same database with linking off: makes the duplicates an older release left. */
  let legacy: App;

  beforeAll(async () => {
    idp = await startOidcProvider();
    const providers = [{ thirdPartyId: "oidc", name: "Test OIDC", oidcDiscoveryEndpoint: idp.discovery, clientId: CONFIDENTIAL.clientId, clientSecret: CONFIDENTIAL.clientSecret, scope: ["openid", "email"] }];
    t = await createTestApp({ backend, start: true, config: { mode: "production", mailCatcher: true, mailCatcherPort: 0, smtpUrl: undefined, providers } });
    legacy = await createApp(testConfig({ ...t.config, accountLinking: false, mailCatcher: false }), { clock: t.clock });
  });
  afterAll(async () => {
    await legacy?.close();
    await t?.close();
    await idp?.close();
  });

  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await postJson(`${t.url}/auth${path}`, body, { rid: "thirdpartyemailpassword", ...modeHeaders("header"), ...headers });
    const json = (await res.json()) as Record<string, any>;
    await t.app.ctx.deferred.drain();
    return { res, json, tokens: readTokens(res, "header", json) };
  };
  const google = (login: string, email: string, verified: boolean) => {
    idp.accounts.set(login, { email, email_verified: verified });
    return signInWithProvider(t.url, "oidc", login, modeHeaders("header"));
  };
  const claims = (res: Response) => {
    const access = jwtPayload(res.headers.get("st-access-token")!);
    return { sub: access.sub, rsub: access.rsub, uid: decodeFrontToken(res.headers.get("front-token")!).uid };
  };
  const userRows = async (email: string) => t.app.store.db.selectFrom("users").select(["id", "primary_user_id"]).where("email", "=", email).execute();
  const verifyByMail = async (tokens: Tokens, email: string) => {
    expect((await postWithSession(t.url, "/user/email/verify/token", tokens)).json).toEqual({ status: "OK" });
    const mail = await waitForCaughtMail(t.app, email, { action: "verify-email" });
    return postWithSession(t.url, "/user/email/verify", tokens, { method: "token", token: mail.token });
  };
  const resetByMail = async (email: string, password: string) => {
    expect((await post("/user/password/reset/token", { formFields: [{ id: "email", value: email }] })).json).toEqual({ status: "OK" });
    const mail = await waitForCaughtMail(t.app, email, { action: "reset-password" });
    return post("/user/password/reset", { method: "token", token: mail.token, formFields: [{ id: "password", value: password }] });
  };

  it("password then Google: a verified password account and a verified Google sign-in are one user (sub = the person, rsub = the method)", async () => {
    const ep = await signUp(t.url, "ada@example.com", "header");
    expect(ep.json.status).toBe("OK");
    const adaId = (ep.json.user as { id: string }).id;
    expect((await verifyByMail(ep.tokens, "ada@example.com")).json.status).toBe("OK");

    const tp = await google("ada-google", "ada@example.com", true);
    expect(tp.json).toMatchObject({ status: "OK", createdNewRecipeUser: true, user: { id: adaId, isPrimaryUser: true, emails: ["ada@example.com"] } });
    expect(tp.json.user.loginMethods.map((m: { recipeId: string; verified: boolean }) => [m.recipeId, m.verified])).toEqual([["emailpassword", true], ["thirdparty", true]]);
    const tpRecipeUser = tp.json.user.loginMethods[1].recipeUserId;
    expect(tpRecipeUser).not.toBe(adaId);
    expect(claims(tp.res)).toEqual({ sub: adaId, rsub: tpRecipeUser, uid: adaId });

    // A refresh keeps both; the password sign-in is the same person with its own rsub.
    const refreshed = await refreshAndRead(t.url, readTokens(tp.res, "header", tp.json));
    expect(jwtPayload(refreshed.tokens.access)).toMatchObject({ sub: adaId, rsub: tpRecipeUser });
    const signIn = await post("/signin", credentials("ada@example.com"));
    expect(signIn.json.user.id).toBe(adaId);
    expect(claims(signIn.res)).toEqual({ sub: adaId, rsub: adaId, uid: adaId });
  });

  it("Google then password: the unverified sign-up is refused with ERR_CODE_007; a reset link adds a verified password to the Google user", async () => {
    const tp = await google("bob-google", "bob@example.com", true);
    expect(tp.json.status).toBe("OK");
    const bobId = tp.json.user.id;

    const refused = await post("/signup", credentials("bob@example.com"));
    expect(refused.json).toEqual({ status: "SIGN_UP_NOT_ALLOWED", reason: REASON.EP_SIGN_UP });
    expect(refused.res.headers.get("front-token")).toBeNull();
    expect(await userRows("bob@example.com")).toHaveLength(1);

    expect((await resetByMail("bob@example.com", "a brand new passphrase")).json).toEqual({ status: "OK" });
    const signIn = await post("/signin", credentials("bob@example.com", "a brand new passphrase"));
    expect(signIn.json).toMatchObject({ status: "OK", user: { id: bobId, isPrimaryUser: true } });
    expect(signIn.json.user.loginMethods.map((m: { recipeId: string; verified: boolean }) => [m.recipeId, m.verified])).toEqual([["thirdparty", true], ["emailpassword", true]]);
    const { sub, rsub } = claims(signIn.res);
    expect(sub).toBe(bobId);
    expect(rsub).not.toBe(bobId);
  });

  it("an unverified third-party address someone else has is refused (ERR_CODE_006 new, ERR_CODE_004 existing), changing nothing", async () => {
    const ep = await signUp(t.url, "carla@example.com", "header");
    await verifyByMail(ep.tokens, "carla@example.com");
    expect((await google("carla-unverified", "carla@example.com", false)).json).toEqual({ status: "SIGN_IN_UP_NOT_ALLOWED", reason: REASON.TP_SIGN_UP });
    expect(await userRows("carla@example.com")).toHaveLength(1);

    // An identity that exists already and now reports carla's address, unverified.
    expect((await google("carla-other", "other-carla@example.com", true)).json.status).toBe("OK");
    expect((await google("carla-other", "carla@example.com", false)).json).toEqual({ status: "SIGN_IN_UP_NOT_ALLOWED", reason: REASON.TP_SIGN_IN });
    const identity = await t.app.store.db.selectFrom("third_party_identities").select("email").where("provider_user_id", "=", "carla-other").executeTakeFirstOrThrow();
    expect(identity.email).toBe("other-carla@example.com");
  });

  it("sign-in with an unverified password whose address a verified Google user has is refused (ERR_CODE_008) only after the password is right; a reset links it", async () => {
    const tp = await google("erin-google", "erin@example.com", true);
    const erinId = tp.json.user.id;
    // Left by a release without linking, later: a separate, unverified password account.
    t.clock.advance(1000);
    const old = await signUpWithPassword(legacy.ctx, { email: "erin@example.com", password: "correct horse battery staple" });
    expect(old.status).toBe("OK");

    expect((await post("/signin", credentials("erin@example.com", "wrong password entirely"))).json).toEqual({ status: "WRONG_CREDENTIALS_ERROR" });
    const refused = await post("/signin", credentials("erin@example.com"));
    expect(refused.json).toEqual({ status: "SIGN_IN_NOT_ALLOWED", reason: REASON.EP_SIGN_IN });
    expect(refused.res.headers.get("front-token")).toBeNull();

    expect((await resetByMail("erin@example.com", "erin's new passphrase")).json).toEqual({ status: "OK" });
    const signIn = await post("/signin", credentials("erin@example.com", "erin's new passphrase"));
    expect(signIn.json).toMatchObject({ status: "OK", user: { id: erinId, isPrimaryUser: true } });
    expect(claims(signIn.res).sub).toBe(erinId);
  });

  it("linking on verification: a separate unverified password account joins the Google user when its address is verified", async () => {
    const tp = await google("finn-google", "finn@example.com", true);
    const finnId = tp.json.user.id;
    t.clock.advance(1000);
    const old = await signUpWithPassword(legacy.ctx, { email: "finn@example.com", password: "correct horse battery staple" });
    if (old.status !== "OK") throw new Error(old.status);
    // Its session (started before linking was turned on) asks for and follows the verification mail.
    const oldId = old.recipeUserId;
    const s = await createSession(legacy.ctx, oldId);
    const tokens: Tokens = { mode: "header", access: s.accessToken, refresh: s.refreshToken };
    expect(jwtPayload(tokens.access)).toMatchObject({ sub: oldId, rsub: oldId });
    expect((await verifyByMail(tokens, "finn@example.com")).json.status).toBe("OK");

    expect((await userRows("finn@example.com")).find((r) => r.id === oldId)?.primary_user_id).toBe(finnId);
    const refreshed = await refreshAndRead(t.url, tokens);
    expect(jwtPayload(refreshed.tokens.access)).toMatchObject({ sub: finnId, rsub: oldId });
    expect((await post("/signin", credentials("finn@example.com"))).json.user.id).toBe(finnId);
  });

  it("shouldTryLinkingWithSessionUser adds a password to the signed-in user, needs a session, and refuses an unverified other address (ERR_CODE_013)", async () => {
    const tp = await google("gina-google", "gina@example.com", true);
    const ginaId = tp.json.user.id;
    const tokens = readTokens(tp.res, "header", tp.json);

    const noSession = await post("/signup", { ...credentials("gina@example.com"), shouldTryLinkingWithSessionUser: true });
    expect(noSession.res.status).toBe(401);
    const other = await postWithSession(t.url, "/signup", tokens, { ...credentials("gina.work@example.com"), shouldTryLinkingWithSessionUser: true }, { rid: "emailpassword", ...modeHeaders("header") });
    expect(other.json).toEqual({ status: "SIGN_UP_NOT_ALLOWED", reason: REASON.EP_SIGN_UP_LINK_UNVERIFIED });

    const linked = await postWithSession(t.url, "/signup", tokens, { ...credentials("gina@example.com"), shouldTryLinkingWithSessionUser: true }, { rid: "emailpassword", ...modeHeaders("header") });
    expect(linked.json).toMatchObject({ status: "OK", user: { id: ginaId, isPrimaryUser: true } });
    expect(linked.json.user.loginMethods).toHaveLength(2);
    expect((await post("/signin", credentials("gina@example.com"))).json.user.id).toBe(ginaId);
  });
});

describe.each(backends)("account linking turned off ($name)", (backend) => {
  let idp: TestIdp;
  let t: TestApp;
  beforeAll(async () => {
    idp = await startOidcProvider();
    const providers = [{ thirdPartyId: "oidc", oidcDiscoveryEndpoint: idp.discovery, clientId: CONFIDENTIAL.clientId, clientSecret: CONFIDENTIAL.clientSecret, scope: ["openid", "email"] }];
    t = await createTestApp({ backend, config: { accountLinking: false, providers } });
  });
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  it("keeps every method its own user, as before linking: no refusal, two ids, sub = rsub", async () => {
    idp.accounts.set("hal", { email: "hal@example.com", email_verified: true });
    const tp = await signInWithProvider(t.url, "oidc", "hal", modeHeaders("header"));
    const ep = await signUp(t.url, "hal@example.com", "header");
    expect(tp.json).toMatchObject({ status: "OK", user: { isPrimaryUser: false } });
    expect(ep.json).toMatchObject({ status: "OK", user: { isPrimaryUser: false } });
    expect((ep.json.user as { id: string }).id).not.toBe(tp.json.user.id);
    const payload = jwtPayload(ep.tokens.access);
    expect(payload.sub).toBe(payload.rsub);
  });
});
