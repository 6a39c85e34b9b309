import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig, settings } from "../../src/config.js";
import { backends } from "../helpers/backends.js";
import { createTestAdmin, dashboardSession, type DashboardClient } from "../helpers/dashboard.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

/**
 * Settings whose name or description says secret, key, password, token or credential but that hold
 * none (a lifetime, a length, a rate limit on wrong keys…). Any other such setting must be marked
 * secret in src/config.ts, or this test fails: a new "fooApiKey" cannot reach the page unmasked.
 */
const NOT_SECRET = new Set([
  "mode", "passwordMinLength", "accessTokenLifetimeMs", "refreshTokenLifetimeMs", "refreshGraceWindowMs",
  "emailVerificationTokenLifetimeMs", "passwordResetTokenLifetimeMs", "emailVerificationRequiresSession", "passwordlessFlowType",
  "passwordlessCodeLifetimeMs", "metadataClaim", "hashThreads", "hostedPages", "webauthnRpId", "webauthnRpName", "webauthnOrigins",
  "webauthnRecoveryTokenLifetimeMs", "limitMailIp", "limitMailHourly", "limitTokenIp", "limitInvalidTokenIp", "limitAdminKeyIp", "limitAdminSigninEmail",
  "webhookAllowNetworks", "limitOauthIp",
  // the old system's address (credentials in it are refused: the secret is its own setting) and its timeout
  "lazyMigrationUrl", "lazyMigrationTimeoutMs",
  // the bot check's site key (public: every page shows it), the breached-password settings, and the
  // DKIM key's file path and selector (the key stays in its 0600 file)
  "captchaSiteKey", "breachedPasswords", "breachedPasswordsUrl", "breachedPasswordsTimeoutMs", "breachedPasswordsAtSignIn", "dkimPrivateKey", "dkimSelector",
  // whether a new device's sign-in is mailed (its description names the new password it asks for)
  "newSignInMail",
  // the SAML signing key's and certificate's file paths (the key stays in its file), and whether the
  // CDI's test mode is on (its description names the API key it does without)
  "samlSigningKey", "samlSigningCert", "cdiTestMode",
]);
const SOUNDS_SECRET = /secret|key|password|passphrase|token|credential|private/i;

// Canaries: each is a value no page may ever show.
const CANARY = {
  secret: "canary-server-secret-0f9e8d7c6b5a49382716",
  adminKey: "canaryAdminKey0f9e8d7c6b5a4938271605f4e3d2c1b0a",
  smtpPassword: "canary-smtp-pw-7a6b5c4d",
  clientSecret: "canary-client-secret-5e4d3c2b",
  webhookSecret: `whsec_${Buffer.from("canary-webhook-secret-32-bytes!!").toString("base64")}`,
  dbPassword: "canary-db-pw-1a2b3c4d",
};

describe("settings that sound secret", () => {
  it("are each marked secret, or listed here as holding no secret", () => {
    const unmarked = settings.filter((s) => SOUNDS_SECRET.test(`${s.key} ${s.doc}`) && !s.secret && !NOT_SECRET.has(s.key)).map((s) => s.key);
    expect(unmarked).toEqual([]);
    // And the list stays honest: nothing on it is marked secret, nothing on it is gone.
    for (const key of NOT_SECRET) {
      const s = settings.find((x) => x.key === key);
      expect(s, key).toBeDefined();
      expect(s!.secret, key).toBeUndefined();
    }
  });
});

describe.each(backends)("the configuration page ($name)", (backend) => {
  let t: TestApp;
  let c: DashboardClient;
  let db: { url: string; drop(): Promise<void> };
  beforeAll(async () => {
    // On PostgreSQL the URL carries a password (trust authentication ignores it): the page must mask it.
    db = await backend.create();
    const database = backend.name === "postgres" ? db.url.replace("postgres://postgres@", `postgres://postgres:${CANARY.dbPassword}@`) : db.url;
    const env = {
      AUTHSVC_SECRET: CANARY.secret,
      AUTHSVC_ADMIN_API_KEY: CANARY.adminKey,
      AUTHSVC_SMTP_URL: `smtp://mailer:${CANARY.smtpPassword}@127.0.0.1:2525`,
      AUTHSVC_PROVIDERS: JSON.stringify([{ thirdPartyId: "oidc", name: "Canary", oidcDiscoveryEndpoint: "http://127.0.0.1:9/.well-known/openid-configuration", clientId: "canary-client", clientSecret: CANARY.clientSecret }]),
      AUTHSVC_WEBHOOKS: JSON.stringify([{ url: "http://127.0.0.1:9/hooks", secret: CANARY.webhookSecret, events: "*" }]),
    };
    const resolved = resolveConfig({ env });
    const { secret, adminApiKey, smtpUrl, providers, webhooks } = resolved.config;
    t = await createTestApp({ backend, config: { database, secret, adminApiKey, smtpUrl, providers, webhooks }, configSources: { sources: resolved.sources, configFile: undefined } });
    c = await dashboardSession(t.url, await createTestAdmin(t.app));
  });
  afterAll(async () => { await t?.close(); await db?.drop(); });

  it("shows every setting with its source, and no secret: each one masked", async () => {
    const res = await c.get("/admin/config");
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const canary of Object.values(CANARY)) expect(html, canary).not.toContain(canary);
    expect(html).not.toContain("whsec_");
    expect(html).toContain("smtp://mailer:****@127.0.0.1:2525");
    expect(html).toContain("canary-client"); // the client id is no secret, and shows the row is there
    for (const s of settings) expect(html, s.key).toContain(`>${s.env}<`);
    // Every setting marked secret is on the page, masked (or unset, or empty).
    const rows = html.split("<tr>").slice(1);
    const cells = (env: string) => {
      const r = rows.find((x) => x.includes(`<span class="mono">${env}</span>`));
      return r ? [...r.matchAll(/<td>(.*?)<\/td>/g)].map((m) => m[1]) : undefined;
    };
    for (const s of settings.filter((x) => x.secret)) {
      const [value] = cells(s.env) ?? [];
      expect(value, s.env).toBeDefined();
      if (s.secret === "all") expect(value, s.env).toMatch(/\*{8}|unset|\[\]/);
    }
    expect(cells("AUTHSVC_SECRET")).toEqual([expect.stringContaining("********"), "environment", expect.any(String), expect.stringContaining("server secret")]);
    expect(cells("AUTHSVC_ADMIN_API_KEY")![0]).toContain("********");
    expect(cells("AUTHSVC_BCRYPT_COST")![1]).toBe("default");
    if (backend.name === "postgres") expect(cells("AUTHSVC_DATABASE")![0]).toContain("postgres://postgres:****@");
  });
});
