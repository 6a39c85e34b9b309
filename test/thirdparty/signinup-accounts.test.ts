import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listCaughtMail } from "../../src/store/caught-mail.js";
import { listOutboxMessages } from "../../src/store/outbox.js";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { waitForCaughtMail } from "../helpers/mail.js";
import { CONFIDENTIAL, signInWithProvider, startOidcProvider, type TestIdp } from "../helpers/oidc-provider.js";
import { authHeaders, credentials, modeHeaders, postJson, readTokens, signUp, type Tokens } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

/**
 * The seed's rules for an address that signs in with a provider, end to end: real provider, real
 * HTTP, real SMTP (the built-in catcher on port 0), production mode so no answer carries a token.
 */
describe.each(backends)("third-party accounts beside email/password ones ($name)", (backend) => {
  let idp: TestIdp;
  let t: TestApp;

  beforeAll(async () => {
    idp = await startOidcProvider();
    t = await createTestApp({
      backend,
      start: true,
      config: {
        mode: "production", mailCatcher: true, mailCatcherPort: 0, smtpUrl: undefined,
        // Each method its own user, as before account linking (test/linking/ covers linking on).
        accountLinking: false,
        providers: [
          { thirdPartyId: "oidc", name: "Test OIDC", oidcDiscoveryEndpoint: idp.discovery, clientId: CONFIDENTIAL.clientId, clientSecret: CONFIDENTIAL.clientSecret, scope: ["openid", "email"] },
          { thirdPartyId: "no-email", requireEmail: false, oidcDiscoveryEndpoint: idp.discovery, clientId: CONFIDENTIAL.clientId, clientSecret: CONFIDENTIAL.clientSecret, scope: ["openid", "email"] },
        ],
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await postJson(`${t.url}/auth${path}`, body, { rid: "thirdpartyemailpassword", ...headers });
    const json = (await res.json()) as Record<string, any>;
    await t.app.ctx.deferred.drain(); // production mode: a reset request's work follows its answer
    return { res, json };
  };
  /** What a client can observe of a response, minus what legitimately differs per request. */
  const observable = ({ res, json }: { res: Response; json: unknown }) => ({
    status: res.status, json, type: res.headers.get("content-type"), cache: res.headers.get("cache-control"),
    cookies: res.headers.getSetCookie(), front: res.headers.get("front-token"), access: res.headers.get("st-access-token"),
  });
  const verifyStatus = (tokens: Tokens) => fetch(`${t.url}/auth/user/email/verify`, { headers: authHeaders(tokens) });
  const tokenRows = () => t.app.store.db.selectFrom("one_time_tokens").select(["user_id", "purpose"]).execute();

  it("a sign-up stores the sign-in page's locale (the callback page's locale key, else the browser's), so the provider's account notice comes in it", async () => {
    const reset = (email: string) => post("/user/password/reset/token", { formFields: [{ id: "email", value: email }] }, { "accept-language": "en" });
    const notice = async (email: string) => {
      const view = await waitForCaughtMail(t.app, email);
      const [row] = await listCaughtMail(t.app.store.db, { to: email });
      return { subject: view.subject, text: row.text_body ?? "", html: row.html_body ?? "" };
    };
    // The hosted callback page sends the sign-in page's locale; the browser's own language does not override it.
    idp.accounts.set("tp-de", { email: "tp-de@example.com", email_verified: true });
    expect((await signInWithProvider(t.url, "oidc", "tp-de", { ...modeHeaders("header"), "accept-language": "fr" }, { locale: "de" })).json.status).toBe("OK");
    // A later sign-in from a page in another language keeps the stored one.
    expect((await signInWithProvider(t.url, "oidc", "tp-de", modeHeaders("header"), { locale: "ko" })).json).toMatchObject({ status: "OK", createdNewRecipeUser: false });
    await reset("tp-de@example.com");
    const de = await notice("tp-de@example.com");
    expect(de.subject).toBe("So meldest du dich an");
    expect(de.text).toContain("Dieses Konto hat kein Passwort: Es meldet sich mit Test OIDC an.");
    expect(de.html).toContain('<html lang="de" dir="ltr">');
    expect(de.html).toContain("Mit Test OIDC anmelden");
    // A locale the server does not offer is ignored: the browser's Accept-Language (an SDK's sign-up sends no locale key).
    idp.accounts.set("tp-ar", { email: "tp-ar@example.com", email_verified: true });
    expect((await signInWithProvider(t.url, "oidc", "tp-ar", { ...modeHeaders("header"), "accept-language": "ar-EG" }, { locale: "tlh" })).json.status).toBe("OK");
    await reset("tp-ar@example.com");
    const ar = await notice("tp-ar@example.com");
    expect(ar.subject).toBe("طريقة تسجيل دخولك");
    expect(ar.html).toContain('<html lang="ar" dir="rtl">');
  });

  it("a reset request for a third-party-only address answers like any other, makes no token, and mails which provider to use", async () => {
    idp.accounts.set("tp-only", { email: "tp-only@example.com", email_verified: true });
    const tp = await signInWithProvider(t.url, "oidc", "tp-only", modeHeaders("header"));
    expect(tp.json).toMatchObject({ status: "OK", createdNewRecipeUser: true, user: { email: "tp-only@example.com" } });
    const ep = await signUp(t.url, "ep-only@example.com", "header");
    expect(ep.json.status).toBe("OK");

    const reset = (email: string) => post("/user/password/reset/token", { formFields: [{ id: "email", value: email }] });
    const [forEp, forNobody, forTp] = [await reset("ep-only@example.com"), await reset("nobody@example.com"), await reset("TP-Only@Example.com")];
    expect(forEp.json).toEqual({ status: "OK" });
    expect(observable(forNobody)).toEqual(observable(forEp));
    expect(observable(forTp)).toEqual(observable(forEp));
    expect(await tokenRows()).toEqual([{ user_id: (ep.json.user as { id: string }).id, purpose: "password_reset" }]);

    const notice = await waitForCaughtMail(t.app, "tp-only@example.com");
    expect(notice.subject).toBe("How you sign in");
    expect(notice.token).toBeNull();
    const [caught] = await listCaughtMail(t.app.store.db, { to: "tp-only@example.com" });
    expect(caught.text_body).toContain("This account has no password: it signs in with Test OIDC.");
    expect(caught.text_body).not.toMatch(/token=/);

    // No password works for it: the same answer as an unknown address, and no session.
    const signIn = (email: string) => post("/signin", credentials(email, "correct horse battery staple"));
    const wrongTp = await signIn("tp-only@example.com");
    expect(wrongTp.json).toEqual({ status: "WRONG_CREDENTIALS_ERROR" });
    expect(observable(wrongTp)).toEqual(observable(await signIn("nobody@example.com")));
    expect(wrongTp.res.headers.get("front-token")).toBeNull();
  });

  it("a reset request for the stand-in address of a provider that gave no email answers the same and mails nobody", async () => {
    idp.accounts.set("Anon_1", {});
    const r = await signInWithProvider(t.url, "no-email", "Anon_1", modeHeaders("header"));
    expect(r.json).toMatchObject({ status: "OK", user: { email: "anon-1.no-email@fakeemail.invalid", loginMethods: [{ verified: true }] } });
    const reset = (email: string) => post("/user/password/reset/token", { formFields: [{ id: "email", value: email }] });
    const forStandIn = await reset("anon-1.no-email@fakeemail.invalid");
    expect(observable(forStandIn)).toEqual(observable(await reset("nobody-else@example.com")));
    expect(await listOutboxMessages(t.app.store.db, { to: "anon-1.no-email@fakeemail.invalid" })).toEqual([]);
    const events = await t.app.store.db.selectFrom("events").select("type").where("type", "like", "password_reset.%").where("data", "like", "%fakeemail.invalid%").execute();
    expect(events.map((e) => e.type)).toEqual(["password_reset.no_account"]);
  });

  it("a third-party user and an email/password user with one address have separate ids, sessions and verification", async () => {
    const ep = await signUp(t.url, "shared@example.com", "header");
    expect(ep.json.status).toBe("OK");
    idp.accounts.set("shared", { email: "Shared@Example.com", email_verified: true });
    const tp = await signInWithProvider(t.url, "oidc", "shared", modeHeaders("header"));
    expect(tp.json).toMatchObject({ status: "OK", createdNewRecipeUser: true, user: { email: "shared@example.com", loginMethods: [{ recipeId: "thirdparty" }] } });
    expect(tp.json.user.loginMethods).toHaveLength(1);
    const epId = (ep.json.user as { id: string }).id, tpId = tp.json.user.id as string;
    expect(tpId).not.toBe(epId);

    const tpTokens = readTokens(tp.res, "header", tp.json);
    expect(decodeJwt(ep.tokens.access)).toMatchObject({ sub: epId });
    expect(decodeJwt(tpTokens.access)).toMatchObject({ sub: tpId });
    expect(decodeJwt(tpTokens.access).sessionHandle).not.toBe(decodeJwt(ep.tokens.access).sessionHandle);
    // The provider vouched for the third-party user's address, not for the other account's.
    expect(await (await verifyStatus(tpTokens)).json()).toEqual({ status: "OK", isVerified: true });
    expect(await (await verifyStatus(ep.tokens)).json()).toEqual({ status: "OK", isVerified: false });

    // Signing one out leaves the other signed in.
    const out = await fetch(`${t.url}/auth/signout`, { method: "POST", headers: authHeaders(tpTokens) });
    expect(out.status).toBe(200);
    expect((await verifyStatus(tpTokens)).status).toBe(401);
    expect((await verifyStatus(ep.tokens)).status).toBe(200);

    // The password signs in the email/password user, never the third-party one.
    const signIn = await post("/signin", credentials("shared@example.com"), modeHeaders("header"));
    expect(signIn.json).toMatchObject({ status: "OK", user: { id: epId } });
    expect(decodeJwt(signIn.res.headers.get("st-access-token")!)).toMatchObject({ sub: epId });
  });

  it("`users show <email>` lists the provider login method of a third-party user", async () => {
    idp.accounts.set("cli-user", { email: "cli-user@example.com", email_verified: true });
    const tp = await signInWithProvider(t.url, "oidc", "cli-user", modeHeaders("header"));
    expect(tp.json.status).toBe("OK");
    const shown = await runCli(["users", "show", "CLI-User@example.com", "--database", t.config.database]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`id:        ${tp.json.user.id}`);
    expect(shown.stdout).toContain("  - thirdparty (oidc, user cli-user)  cli-user@example.com  verified");
    expect(shown.stdout).not.toContain("emailpassword");
    const json = await runCli(["users", "show", "cli-user@example.com", "--json", "--database", t.config.database]);
    expect(JSON.parse(json.stdout)).toMatchObject({ id: tp.json.user.id, thirdParty: [{ id: "oidc", userId: "cli-user" }], loginMethods: [{ recipeId: "thirdparty", verified: true }] });

    // An address with both kinds of user: the CLI does not guess; it lists both and asks for the id.
    const ep = await signUp(t.url, "cli-user@example.com", "header");
    expect(ep.json.status).toBe("OK");
    const epId = (ep.json.user as { id: string }).id;
    const both = await runCli(["users", "show", "cli-user@example.com", "--database", t.config.database]);
    expect(both.code).toBe(1);
    expect(both.stdout).toBe("");
    expect(both.stderr).toMatch(/cli-user@example\.com belongs to 2 users; give the id of the one you mean:/);
    expect(both.stderr).toMatch(new RegExp(`${tp.json.user.id} .*thirdparty:oidc`));
    expect(both.stderr).toMatch(new RegExp(`${epId} .*emailpassword`));
    const byId = await runCli(["users", "show", epId, "--database", t.config.database]);
    expect(byId.stdout).toMatch(/login methods:\n {2}- emailpassword {2}cli-user@example\.com/);
  });
});
