import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { fixture, fixtureDatabase, importHarness } from "./harness.js";

const pgUrl = process.env.AUTHSVC_TEST_PG_URL;
const id = (n: number) => `3b5e1c9a-1f4e-4a7e-9d2f-6c1a2b3c4d0${n}`;

/** What both forms of the export bring: the same people. */
async function expectKratosPeople(h: ReturnType<typeof importHarness>) {
  // Kratos' own hashes (its hasher_test.go vectors): Argon2id, PBKDF2 "sha384" (SHA3-384), bcrypt cost 12, {SSHA256}, scrypt.
  await h.expectPasswordMoved("ada@example.com", "test", id(1));
  expect(await h.verified(id(1))).toEqual(["ada@example.com"]);
  expect(await h.identity("google", "110000000000000000001")).toEqual({ user_id: id(1), email: "ada@example.com" });
  expect(await h.metadata(id(1))).toEqual({ traits: { name: { first: "Ada" } }, metadata_public: { plan: "pro" } });
  await h.expectPasswordMoved("bob@example.com", "test", id(2));
  expect(await h.verified(id(2))).toEqual([]);
  await h.expectPasswordMoved("carol@example.com", "test", id(3));
  await h.expectSecondFactorKept("carol@example.com", "test", id(3), "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP");
  expect(await h.identity("github", "4242")).toEqual({ user_id: id(4), email: "dan@example.com" });
  await h.expectPasswordMoved("erin@example.com", "test123", id(5));
  await h.expectPasswordMoved("fay@example.com", "test", id(6));
  expect(await h.user(id(7))).toBeUndefined();
}

describe.each(backends)("users import --from kratos: the admin API's identities as JSON ($name)", (backend) => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ backend }); });
  afterAll(async () => { await t.close(); });
  const h = importHarness(() => t);

  it("keeps ids, Kratos' hashes, OIDC identities, the TOTP credential, verified addresses and metadata; refuses an inactive identity", async () => {
    const file = fixture("kratos-identities.json");
    await h.dryRunThenImportRefusing(["--from", "kratos", file], 6, [[`${file} [6] (${id(7)})`, `identity ${id(7)} is inactive in Kratos`]]);
    await expectKratosPeople(h);
  }, 120_000); // real hashes at their systems' costs: on a shared machine, seconds each (their time is not what is tested)
});

describe.runIf(pgUrl).each(backends)("users import --from kratos postgres://…: Kratos' own database, read-only ($name)", (backend) => {
  let t: TestApp, source: { url: string; drop(): Promise<void> };
  beforeAll(async () => { t = await createTestApp({ backend }); source = await fixtureDatabase("kratos.sql", "kratos"); });
  afterAll(async () => { await t.close(); await source.drop(); });
  const h = importHarness(() => t);

  it("reads identities, credentials and verifiable addresses from its tables", async () => {
    await h.dryRunThenImportRefusing(["--from", "kratos", source.url], 6, [[`identity ${id(7)}`, `identity ${id(7)} is inactive in Kratos`]]);
    await expectKratosPeople(h);
  }, 120_000); // real hashes at their systems' costs: on a shared machine, seconds each (their time is not what is tested)
});
