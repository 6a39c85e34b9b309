import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { fixture, importHarness } from "./harness.js";

describe.each(backends)("users import --from clerk: the Dashboard's users CSV ($name)", (backend) => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ backend }); });
  afterAll(async () => { await t.close(); });
  const h = importHarness(() => t);

  it("keeps ids, the verified flag, bcrypt / Argon2 / Firebase-scrypt digests and the TOTP secret", async () => {
    await h.dryRunThenImport(["--from", "clerk", fixture("clerk-users.csv")], 4);
    // Her totp_secret is her authenticator app: her password alone is not enough, its code is.
    await h.expectSecondFactorKept("jane@example.com", "correct horse battery staple", "user_2YDryYFVMM1W1plDDKz7Gzf4we6", "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP");
    expect(await h.verified("user_2YDryYFVMM1W1plDDKz7Gzf4we6")).toEqual(["jane@example.com"]);
    expect(await h.metadata("user_2YDryYFVMM1W1plDDKz7Gzf4we6")).toEqual({
      first_name: "Jane", last_name: "Doe", username: "janed", phone_number: "+15551234567", other_email_addresses: ["jane.doe@work.example", "old-jane@example.com"],
    });
    // An address Clerk lists as unverified stays unverified; the Argon2 digest signs in.
    expect(await h.signIn("john@example.com", "correct horse battery staple")).toMatchObject({ status: "OK", user: { id: "user_2ZZCgLE7kJG2CRBxTZ6YUIvzS10" } });
    expect(await h.verified("user_2ZZCgLE7kJG2CRBxTZ6YUIvzS10")).toEqual([]);
    expect(await h.signIn("fia@example.com", "user1password")).toMatchObject({ status: "OK", user: { id: "user_2cWszPHuo6P2lCdnhhZbVMfbAIC" } });
    expect((await h.signIn("fia@example.com", "user1password!")).status).toBe("WRONG_CREDENTIALS_ERROR");
    // No digest: the address signs in by a mailed code, not by any password.
    expect(await t.app.store.db.selectFrom("passwordless_users").select("user_id").where("email", "=", "nopass@example.com").executeTakeFirst()).toEqual({ user_id: "user_2cukOsyNsh0J3MCEvrgM6PkoB0I" });
    expect(await t.app.store.db.selectFrom("email_password_credentials").select("user_id").where("email", "=", "nopass@example.com").executeTakeFirst()).toBeUndefined();
  });

  it("refuses a row whose hasher authsvc cannot read, and one without an address, saying which and why", async () => {
    const { writeFileSync, mkdtempSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const file = join(mkdtempSync(join(tmpdir(), "clerk-")), "users.csv");
    writeFileSync(file, [
      "id,first_name,last_name,username,primary_email_address,primary_phone_number,verified_email_addresses,unverified_email_addresses,verified_phone_numbers,unverified_phone_numbers,totp_secret,password_digest,password_hasher",
      "user_md5,,,,md5@example.com,,md5@example.com,,,,,5f4dcc3b5aa765d61d8327deb882cf99,md5",
      "user_phone,,,,,+15550000000,,,+15550000000,,,,",
    ].join("\n"));
    const r = await h.cli(["--from", "clerk", file]);
    expect(r.code).toBe(1);
    // Each refusal names its place once: the file and its line, then why.
    expect(r.stdout).toContain(`\n  ${file} line 2: refused: password_hasher "md5" is not one authsvc reads`);
    expect(r.stdout).toContain(`\n  ${file} line 3: refused: user user_phone has no primary_email_address`);
    expect(r.stdout).not.toMatch(/line \d+: refused: .* line \d+:/);
    expect(await h.user("user_md5")).toBeUndefined();
  });
});
