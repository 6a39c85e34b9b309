import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { requestPasswordReset } from "../../src/core/password-reset.js";
import { upsertThirdPartyUser } from "../../src/core/thirdparty/sign-in-up.js";
import { listOutboxMessages } from "../../src/store/outbox.js";

describe.each(backends)("password reset core: third-party notice ($name)", (backend) => {
  let t: TestApp;
  beforeEach(async () => {
    // A GitHub provider without a configured `name`: the mail uses the preset's "GitHub".
    t = await createTestApp({ backend, listen: false, config: { providers: [{ thirdPartyId: "github", clientId: "c", clientSecret: "s" }] } });
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
