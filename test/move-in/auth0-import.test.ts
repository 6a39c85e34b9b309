import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { fixture, importHarness } from "./harness.js";

const PASSWORD = "correct horse battery staple";

describe.each(backends)("users import --from auth0: the bulk import file ($name)", (backend) => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ backend }); });
  afterAll(async () => { await t.close(); });
  const h = importHarness(() => t);

  it("keeps ids, every custom_password_hash algorithm and password_hash, TOTP factors and metadata; refuses a blocked user", async () => {
    const file = fixture("auth0-import.json");
    await h.dryRunThenImportRefusing(["--from", "auth0", file], 9, [[`${file} [9]`, "user auth0|blocked-1 is blocked in Auth0 (blocked: true)"]]);
    // md4 (hash-wasm, not in OpenSSL 3's default provider), with an authenticator app.
    await h.expectPasswordMoved("antoinette@contoso.com", PASSWORD, "auth0|5f8c1d2e9a");
    await h.expectSecondFactorKept("antoinette@contoso.com", PASSWORD, "auth0|5f8c1d2e9a", "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP");
    expect(await h.verified("auth0|5f8c1d2e9a")).toEqual(["antoinette@contoso.com"]);
    expect(await h.metadata("auth0|5f8c1d2e9a")).toEqual({ given_name: "Antoinette", family_name: "Example", user_metadata: { theme: "light" }, app_metadata: { roles: ["admin"], plan: "premium" } });
    // sha256 over a hex salt then the password (upper-case hex); Argon2; PBKDF2 in Auth0's PHC shape; LDAP {SSHA512}.
    await h.expectPasswordMoved("mary@contoso.com", PASSWORD, "auth0|mary-2000");
    expect(await h.verified("auth0|mary-2000")).toEqual([]);
    await h.expectPasswordMoved("edward@contoso.com", PASSWORD, "auth0|edward-1");
    await h.expectPasswordMoved("terrell@contoso.com", PASSWORD, "auth0|terrell-1");
    await h.expectPasswordMoved("sean@contoso.com", PASSWORD, "auth0|sean-1");
    // Auth0's own documented examples: HMAC-SHA1 ("test"), scrypt ("password"), and password_hash bcrypt ("hello", no user_id: a new id).
    await h.expectPasswordMoved("peter@contoso.com", "test", "auth0|peter-1");
    await h.expectPasswordMoved("carmella@contoso.com", "password", "auth0|carmella-1");
    expect(await h.expectPasswordMoved("velma@contoso.com", "hello")).not.toMatch(/^auth0\|/);
    // No hash: the address signs in by a mailed code.
    expect(await t.app.store.db.selectFrom("passwordless_users").select("email").where("email", "=", "john.doe@contoso.com").executeTakeFirst()).toEqual({ email: "john.doe@contoso.com" });
    expect(await h.user("auth0|blocked-1")).toBeUndefined();
  }, 120_000); // real hashes at their systems' costs: on a shared machine, seconds each (their time is not what is tested)
});
