import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { jwtPayload } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { fixture, importHarness } from "./harness.js";

const ADA = "5f0b7c1e-6a3d-4b8e-9c21-0d4e5f6a7b8c", GRACE = "7c9e6679-7425-40de-944b-e07fc1f90ae7", LINUS = "16fd2706-8baf-433b-82eb-8c7fada847da";
const MARGARET = "886313e1-3b8a-5372-9b90-0c9aee199e5d", ALAN = "a8098c1a-f86e-11da-bd1a-00112444be1e", KENJI = "b1c2d3e4-0000-4000-8000-000000000001";
const PASSWORD = "correct horse battery staple";
// Ada's OTP credential: Keycloak's secret "Hj4kLw9QpXz2Rt7Vb3Nm" is the key as UTF-8; its QR code shows this Base32.
const ADA_TOTP = "JBVDI22MO44VC4CYPIZFE5BXKZRDGTTN";

describe.each(backends)("users import --from keycloak: a realm export ($name)", (backend) => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ backend }); });
  afterAll(async () => { await t.close(); });
  const h = importHarness(() => t);

  it("keeps ids, every credential algorithm, OTP, required actions, federated identities, realm roles and groups as organizations", async () => {
    const realm = fixture("keycloak-realm.json");
    await h.dryRunThenImportRefusing(["--from", "keycloak", realm, "--groups-as-organizations"], 6, [
      [`${realm} users[6] (gone)`, "user gone is disabled in Keycloak (enabled: false)"],
      [`${realm} users[7] (svc-robot)`, "user svc-robot has no email"],
    ]);
    // Argon2 (Keycloak 25's default) with an OTP credential: the password, then its authenticator app.
    await h.expectPasswordMoved("ada@example.com", PASSWORD, ADA);
    await h.expectSecondFactorKept("ada@example.com", PASSWORD, ADA, ADA_TOTP);
    expect(await h.verified(ADA)).toEqual(["ada@example.com"]);
    expect(await h.identity("google", "110248495921238986420")).toEqual({ user_id: ADA, email: "ada@example.com" });
    expect(await h.roles(ADA)).toEqual(["admin"]);
    expect(await h.organizations(ADA)).toEqual([{ name: "Acme Corp", role: "member" }]);
    expect(await h.metadata(ADA)).toEqual({ username: "ada", first_name: "Ada", last_name: "Lovelace", attributes: { locale: ["en"] } });
    // PBKDF2-SHA512, and CONFIGURE_TOTP: her next sign-in sets an authenticator app up before anything else.
    await h.expectPasswordMoved("grace@example.com", PASSWORD, GRACE);
    const grace = await h.signIn("grace@example.com", PASSWORD);
    expect(jwtPayload(grace.tokens!.access)["st-mfa"]).toMatchObject({ v: false });
    expect(await h.roles(GRACE)).toEqual(["editor"]);
    expect(await h.organizations(GRACE)).toEqual([{ name: "Acme Corp", role: "member" }, { name: "beta", role: "member" }]);
    expect(await h.metadata(GRACE)).toMatchObject({ required_actions: ["UPDATE_PROFILE"] });
    // Argon2i with a 64-byte hash; VERIFY_EMAIL leaves the address unverified although emailVerified is true.
    await h.expectPasswordMoved("linus@example.com", PASSWORD, LINUS);
    expect(await h.verified(LINUS)).toEqual([]);
    // PBKDF2-SHA256 of Keycloak before 24 (a 512-bit key: two blocks) and PBKDF2 (SHA-1, four blocks).
    await h.expectPasswordMoved("margaret@example.com", PASSWORD, MARGARET);
    expect(await h.verified(MARGARET)).toEqual([]);
    await h.expectPasswordMoved("alan@example.com", PASSWORD, ALAN);
    expect(jwtPayload((await h.signIn("alan@example.com", PASSWORD)).tokens!.access)["st-mfa"]).toMatchObject({ v: true });
    // A federated identity without a password: GitHub finds the same person.
    expect(await h.identity("github", "583231")).toEqual({ user_id: KENJI, email: "kenji@example.com" });
    expect(await h.user("b1c2d3e4-0000-4000-8000-000000000002")).toBeUndefined();
  }, 120_000); // real hashes at their systems' costs: on a shared machine, seconds each (their time is not what is tested)

  it("--groups-as-organizations goes with --from keycloak only", async () => {
    const r = await h.cli(["--from", "auth0", fixture("auth0-users.json"), "--groups-as-organizations"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--groups-as-organizations goes with --from keycloak");
  });
});
