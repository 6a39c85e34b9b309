import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { signInWithProvider, startOidcProvider, CONFIDENTIAL, type TestIdp } from "../helpers/oidc-provider.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { fixture, importHarness, supabaseDatabase } from "./harness.js";

const pgUrl = process.env.AUTHSVC_TEST_PG_URL;

describe.each(backends)("users import --from firebase: auth:export --format=csv ($name)", (backend) => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ backend }); });
  afterAll(async () => { await t.close(); });
  const h = importHarness(() => t);

  it("reads firebase-tools' column order: uid, address, verified flag, scrypt hash and salt, Google and GitHub ids, created time, custom claims", async () => {
    await h.dryRunThenImport(["--from", "firebase", fixture("firebase-users.csv"), "--firebase-hash-config", fixture("firebase-hash-config.txt")], 3);
    expect(await h.signIn("user1@example.com", "user1password")).toMatchObject({ status: "OK", user: { id: "Ptuf5NVSQCaHUdi0BUJvtxvYrOj1" } });
    expect((await h.signIn("user1@example.com", "user2password")).status).toBe("WRONG_CREDENTIALS_ERROR");
    expect(await h.user("Ptuf5NVSQCaHUdi0BUJvtxvYrOj1")).toMatchObject({ time_joined: 1627000000000 });
    expect(await h.metadata("Ptuf5NVSQCaHUdi0BUJvtxvYrOj1")).toEqual({ role: "editor" });
    expect(await h.identity("google", "114576351867291548235")).toEqual({ user_id: "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5", email: "linus@gmail.com" });
    expect(await h.identity("github", "583231")).toEqual({ user_id: "QWRhTG92ZWxhY2UxODE1MTg1Mg", email: "ada@example.com" });
    expect(await h.verified("QWRhTG92ZWxhY2UxODE1MTg1Mg")).toEqual([]);
  });
});

/** A database of its own holding Supabase's `auth` schema (created from test/fixtures/move-in/supabase-auth.sql). */
describe.runIf(pgUrl).each(backends)("users import --from supabase postgres://…: auth.users, auth.identities and auth.mfa_factors read from the database ($name)", (backend) => {
  let t: TestApp, idp: TestIdp, source: { url: string; drop(): Promise<void> };
  beforeAll(async () => {
    idp = await startOidcProvider();
    const providers = [{ thirdPartyId: "google", name: "Google", oidcDiscoveryEndpoint: idp.discovery, clientId: CONFIDENTIAL.clientId, clientSecret: CONFIDENTIAL.clientSecret, scope: ["openid", "email"] }];
    t = await createTestApp({ backend, config: { providers } });
    source = await supabaseDatabase();
  });
  afterAll(async () => { await t.close(); await idp.close(); await source.drop(); });
  const h = importHarness(() => t);

  it("keeps ids, the bcrypt password, the verified TOTP factor, the Google identity and metadata; deleted users stay behind", async () => {
    await h.dryRunThenImport(["--from", "supabase", source.url], 2);
    const mia = "8d2c7b1e-4f0a-4c39-9a57-2f1e0b6d5c11";
    await h.expectSecondFactorKept("mia@example.com", "supabase horse battery", mia, "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP");
    expect(await h.user(mia)).toMatchObject({ time_joined: Date.parse("2024-02-01T09:59:00.5Z") });
    expect(await h.verified(mia)).toEqual(["mia@example.com"]);
    expect(await h.metadata(mia)).toEqual({ user_metadata: { full_name: "Mia Example", email_verified: true }, app_metadata: { provider: "email", providers: ["email"] } });
    idp.accounts.set("109876543210987654321", { email: "noor@gmail.com", email_verified: true });
    expect((await signInWithProvider(t.url, "google", "109876543210987654321")).json).toMatchObject({ status: "OK", createdNewRecipeUser: false, user: { id: "1b9f0c4d-7e2a-4b61-8d3c-5a6f7e8d9c02" } });
    expect(await h.user("e0e0e0e0-0000-4000-8000-00000000dead")).toBeUndefined();
  });
});
