import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { requestPasswordReset } from "../../src/methods/email-password/password-reset.js";
import { upsertThirdPartyUser } from "../../src/methods/third-party/sign-in-up.js";
import { listOutboxMessages } from "../../src/store/outbox.js";

describe.each(backends)("password reset core: third-party notice ($name)", (backend) => {
  let t: TestApp;
  beforeEach(async () => {
    // A GitHub provider without a configured `name`: the mail uses the preset's "GitHub". With
    // account linking on, a verified third-party user gets a reset link that adds a password
    // instead (test/linking/); the notice is what linking off (and an unverified address) gets.
    t = await createTestApp({ backend, listen: false, config: { accountLinking: false, providers: [{ thirdPartyId: "github", clientId: "c", clientSecret: "s" }] } });
  });
  afterEach(async () => { await t.close(); });

  it("names the provider as the registry does, and an unconfigured one by its capitalised id", async () => {
    await upsertThirdPartyUser(t.app.ctx, { thirdPartyId: "github", thirdPartyUserId: "1", email: "gh@example.com", emailVerified: true });
    await upsertThirdPartyUser(t.app.ctx, { thirdPartyId: "gone-idp", thirdPartyUserId: "2", email: "old@example.com", emailVerified: true });
    for (const email of ["gh@example.com", "old@example.com"]) expect(await requestPasswordReset(t.app.ctx, email)).toMatchObject({ status: "OK", outcome: "third_party_notice" });
    const [gh] = await listOutboxMessages(t.app.store.db, { to: "gh@example.com" });
    expect(gh.text_body).toContain("it signs in with GitHub.");
    const [old] = await listOutboxMessages(t.app.store.db, { to: "old@example.com" });
    expect(old.text_body).toContain("it signs in with Gone-idp.");
  });
});
