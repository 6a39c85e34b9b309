import { createCipheriv, createHash, generateKeyPairSync, pbkdf2Sync, randomBytes, randomUUID, sign } from "node:crypto";
import { readFileSync } from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends, postgresBackend } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { signInWithProvider, startOidcProvider, CONFIDENTIAL, type TestIdp } from "../helpers/oidc-provider.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { importHarness } from "./harness.js";

const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");
const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
const GRACE = "4f1c2d3e-0000-4000-8000-00000000b0b0", ADA = "4f1c2d3e-0000-4000-8000-00000000a0a0", ADA_GOOGLE = "4f1c2d3e-0000-4000-8000-00000000a0a1", LIN = "4f1c2d3e-0000-4000-8000-00000000c0c0";

/** The core's refresh token (RefreshToken.createNewRefreshToken, Utils.encrypt): AES-256-GCM under PBKDF2-SHA512(key, iv, 100). */
const CDI_KEY = "cdi-move-in-key-0123456789-abcdefghijkl";

function coreRefreshToken(key: string, payload: Record<string, unknown>): string {
  const nonce = sha256(randomUUID());
  const iv = randomBytes(12);
  const c = createCipheriv("aes-256-gcm", pbkdf2Sync(key, iv, 100, 32, "sha512"), iv);
  const ct = Buffer.concat([c.update(JSON.stringify({ ...payload, nonce }), "utf8"), c.final()]);
  return `${Buffer.concat([iv, ct, c.getAuthTag()]).toString("base64")}.${nonce}.V2`;
}

// The core's database is PostgreSQL by nature; authsvc's own database is each backend in turn.
// Without AUTHSVC_TEST_PG_URL there is no core to read (the run says so at the end).
describe.runIf(process.env.AUTHSVC_TEST_PG_URL).each(backends)("users import --from supertokens: a core's PostgreSQL database ($name)", (backend) => {
  let t: TestApp, idp: TestIdp;
  let source: { url: string; drop(): Promise<void> };
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const keyCreated = Date.now() - 3_600_000;
  const refreshKey = `1000:${randomBytes(64).toString("hex")}:${randomBytes(64).toString("hex")}`;
  const adaToken = coreRefreshToken(refreshKey, { sessionHandle: "st-session-ada", userId: ADA });
  // Lin's last refresh was never confirmed at the core: it holds the parent's hash, she the child.
  const linParent = coreRefreshToken(refreshKey, { sessionHandle: "st-session-lin", userId: LIN });
  const graceToken = coreRefreshToken(refreshKey, { sessionHandle: "st-session-grace", userId: GRACE });
  // A session the app's backend (supertokens-node) will go on with through authsvc's CDI.
  const cdiToken = coreRefreshToken(refreshKey, { sessionHandle: "st-session-cdi", userId: ADA });
  const linChild = coreRefreshToken(refreshKey, { sessionHandle: "st-session-lin", userId: LIN, parentRefreshTokenHash1: sha256(linParent) });

  beforeAll(async () => {
    idp = await startOidcProvider();
    const providers = [{ thirdPartyId: "google", name: "Google", oidcDiscoveryEndpoint: idp.discovery, clientId: CONFIDENTIAL.clientId, clientSecret: CONFIDENTIAL.clientSecret, scope: ["openid", "email"] }];
    t = await createTestApp({ backend, config: { providers, cdiApiKey: CDI_KEY } });
    source = await postgresBackend.create();
    const schema = new URL(source.url).searchParams.get("schema")!;
    const c = new pg.Client({ connectionString: process.env.AUTHSVC_TEST_PG_URL });
    await c.connect();
    await c.query(`set search_path to "${schema}"`);
    await c.query(readFileSync(new URL("../fixtures/move-in/supertokens-core.sql", import.meta.url), "utf8"));
    // As the core stores them: base64 X.509 | base64 PKCS#8; the refresh key in key_value; sessions with SHA-256(SHA-256(token)).
    const value = `${publicKey.export({ format: "der", type: "spki" }).toString("base64")}|${privateKey.export({ format: "der", type: "pkcs8" }).toString("base64")}`;
    await c.query("insert into session_access_token_signing_keys (created_at_time, value) values ($1, $2)", [keyCreated, value]);
    await c.query("insert into key_value (name, value, created_at_time) values ('refresh_token_key', $1, $2)", [refreshKey, keyCreated]);
    const session = "insert into session_info (session_handle, user_id, refresh_token_hash_2, session_data, expires_at, created_at_time, jwt_user_payload, use_static_key) values ($1, $2, $3, '{}', $4, $5, '{}', false)";
    await c.query(session, ["st-session-ada", ADA, sha256(sha256(adaToken)), Date.now() + 86_400_000, Date.now() - 60_000]);
    await c.query(session, ["st-session-lin", LIN, sha256(sha256(linParent)), Date.now() + 86_400_000, Date.now() - 60_000]);
    await c.query(session, ["st-session-grace", GRACE, sha256(sha256(graceToken)), Date.now() + 86_400_000, Date.now() - 60_000]);
    await c.query(session, ["st-session-cdi", ADA, sha256(sha256(cdiToken)), Date.now() + 86_400_000, Date.now() - 60_000]);
    await c.query(session, ["st-session-old", ADA, sha256("expired"), Date.now() - 1000, Date.now() - 90_000_000]);
    await c.end();
  });
  afterAll(async () => { await t.close(); await idp.close(); await source.drop(); });
  const h = importHarness(() => t);
  const cli = (args: string[]) => runCli(["users", "import", "--from", "supertokens", source.url, ...args, "--database", t.config.database]);
  const db = () => t.app.store.db;

  /** An access token exactly as the core signs one (AccessToken v5, JWTSigningFunctions): kid d-<created_at_time>, no iss. */
  function coreAccessToken(sessionHandle: string, sub: string, rsub: string, refreshToken: string): string {
    const now = Math.floor(t.clock.now() / 1000);
    const data = `${b64url({ alg: "RS256", typ: "JWT", version: "5", kid: `d-${keyCreated}` })}.${b64url({ sub, exp: now + 3600, iat: now - 60, tId: "public", rsub, sessionHandle, refreshTokenHash1: sha256(refreshToken), parentRefreshTokenHash1: null, antiCsrfToken: null })}`;
    return `${data}.${sign("RSA-SHA256", Buffer.from(data), privateKey).toString("base64url")}`;
  }
  const refresh = (token: string) => fetch(`${t.url}/auth/session/refresh`, { method: "POST", headers: { authorization: `Bearer ${token}`, rid: "session", "st-auth-mode": "header" } });

  it("a dry run says what would move; the import keeps ids, links, hashes, identities, roles and TOTP; a second run moves nothing", async () => {
    const dry = await cli(["--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("3 would be created, 0 skipped (duplicates), 0 refused");
    expect(dry.stdout).toContain("would move 4 live session(s)");
    expect(await db().selectFrom("users").select("id").where("id", "=", ADA).executeTakeFirst()).toBeUndefined();

    const real = await cli([]);
    expect(real.stdout).toContain("3 created, 0 skipped (duplicates), 0 refused");
    expect(real.stdout).toContain("moved 1 access-token signing key(s)");
    expect(real.stdout).toContain("moved 4 live session(s)");
    expect(real.code).toBe(0);
    expect((await cli([])).stdout).toContain("moved 0 live session(s) (4 here already");

    // Her TOTP device came along, and is asked for: the password alone is not enough, a code from its secret is.
    await h.expectSecondFactorKept("ada@example.com", "correct horse battery staple", ADA, "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP");
    // Her Google login kept its own id, linked to her: the SDK sees person ADA signed in through recipe user ADA_GOOGLE.
    idp.accounts.set("108410002211223344556", { email: "ada@example.com", email_verified: true });
    const google = await signInWithProvider(t.url, "google", "108410002211223344556", { "st-auth-mode": "header" });
    expect(google.json).toMatchObject({ status: "OK", createdNewRecipeUser: false, user: { id: ADA, isPrimaryUser: true } });
    expect(google.json.user.loginMethods).toEqual(expect.arrayContaining([expect.objectContaining({ recipeId: "thirdparty", recipeUserId: ADA_GOOGLE, thirdParty: { id: "google", userId: "108410002211223344556" } })]));
    const claims = JSON.parse(Buffer.from(google.res.headers.get("st-access-token")!.split(".")[1], "base64url").toString());
    expect(claims).toMatchObject({ sub: ADA, rsub: ADA_GOOGLE });
    expect(await db().selectFrom("user_roles").select("role").where("user_id", "=", ADA).execute()).toEqual([{ role: "admin" }]);
    expect((await db().selectFrom("verified_emails").select("email").where("user_id", "=", LIN).execute())).toEqual([{ email: "lin@example.com" }]);
    expect(await db().selectFrom("passwordless_users").select("email").where("user_id", "=", LIN).executeTakeFirst()).toEqual({ email: "lin@example.com" });
  });

  it("an access token the core signed verifies, and its key is in the JWKS with the same kid", async () => {
    t.clock.advance(61_000); // past the once-a-minute reload of the keys
    const jwks = await (await fetch(`${t.url}/auth/jwt/jwks.json`)).json() as { keys: Array<{ kid: string; n: string }> };
    expect(jwks.keys.find((k) => k.kid === `d-${keyCreated}`)?.n).toBe(publicKey.export({ format: "jwk" }).n);
    const access = coreAccessToken("st-session-ada", ADA, ADA, adaToken);
    const r = await fetch(`${t.url}/auth/user/email/verify`, { headers: { authorization: `Bearer ${access}` } });
    expect(r.status).toBe(200);
    // Tampered: refused as any bad token is.
    const forged = access.replace(/\.[^.]+$/, `.${sign("RSA-SHA256", Buffer.from("x"), generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey).toString("base64url")}`);
    expect((await fetch(`${t.url}/auth/user/email/verify`, { headers: { authorization: `Bearer ${forged}` } })).status).toBe(401);
  });

  it("the app's backend switches its connectionURI to authsvc's CDI: the core's access token verifies there and its refresh token refreshes", async () => {
    const cdi = async (path: string, body: unknown) => (await (await fetch(`${t.url}/cdi${path}`, { method: "POST", headers: { "api-key": CDI_KEY, "cdi-version": "5.4", "content-type": "application/json" }, body: JSON.stringify(body) })).json()) as Record<string, any>;
    const access = coreAccessToken("st-session-cdi", ADA, ADA, cdiToken);
    expect(await cdi("/recipe/session/verify", { accessToken: access, doAntiCsrfCheck: false, enableAntiCsrf: false, checkDatabase: true })).toMatchObject({ status: "OK", session: { handle: "st-session-cdi", userId: ADA } });
    const r = await cdi("/recipe/session/refresh", { refreshToken: cdiToken, enableAntiCsrf: false, useDynamicSigningKey: true });
    expect(r).toMatchObject({ status: "OK", session: { handle: "st-session-cdi", userId: ADA } });
    expect((await cdi("/recipe/session/verify", { accessToken: r.accessToken.token, doAntiCsrfCheck: false, enableAntiCsrf: false, checkDatabase: true })).status).toBe("OK");
    expect((await cdi("/recipe/session/refresh", { refreshToken: r.refreshToken.token, enableAntiCsrf: false, useDynamicSigningKey: true })).status).toBe("OK");
  });

  it("the core's refresh tokens refresh (also an unconfirmed child), once; a made-up one does not", async () => {
    const r = await refresh(adaToken);
    expect(r.status).toBe(200);
    const access = r.headers.get("st-access-token")!;
    expect(JSON.parse(Buffer.from(access.split(".")[1], "base64url").toString())).toMatchObject({ sub: ADA, sessionHandle: "st-session-ada" });
    expect((await fetch(`${t.url}/auth/user/email/verify`, { headers: { authorization: `Bearer ${access}` } })).status).toBe(200);
    const next = await refresh(r.headers.get("st-refresh-token")!);
    expect(next.status).toBe(200);

    expect((await refresh(linChild)).status).toBe(200);
    // The parent the core still held is spent with its child (as at the core, once promoted).
    expect((await refresh(linParent)).status).toBe(401);
    const madeUp = coreRefreshToken(`1000:${randomBytes(8).toString("hex")}:x`, { sessionHandle: "st-session-lin", userId: LIN, parentRefreshTokenHash1: sha256(linParent) });
    expect((await refresh(madeUp)).status).toBe(401);
    // Two tabs refresh with the core's token at the same moment: both keep a working session.
    const tabs = await Promise.all([refresh(graceToken), refresh(graceToken)]);
    expect(tabs.map((x) => x.status)).toEqual([200, 200]);
    for (const tab of tabs) expect((await refresh(tab.headers.get("st-refresh-token")!)).status).toBe(200);
    // The old token used again long after: theft, the session ends, as for any of our tokens.
    t.clock.advance(3_600_000);
    expect((await refresh(adaToken)).status).toBe(401);
    expect((await db().selectFrom("sessions").select("revoked_at").where("handle", "=", "st-session-ada").executeTakeFirstOrThrow()).revoked_at).not.toBeNull();
  });
});
