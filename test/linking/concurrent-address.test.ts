import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { upsertThirdPartyUser } from "../../src/methods/third-party/sign-in-up.js";
import { findPeopleByAddress } from "../../src/core/logins.js";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

/**
 * "At most one person per address" when two sign-ups for one address race: an unverified password
 * sign-up and a verified third-party sign-up at the same moment. Whichever decides first wins, the
 * other is refused (ERR_CODE_007 or _006); never two people. On PostgreSQL (READ COMMITTED) both
 * would otherwise read "no one has it" and both create a person.
 */
describe.each(backends)("account linking under concurrent sign-ups ($name)", (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ backend });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("an address raced by a password sign-up and a third-party sign-up ends with one person", async () => {
    const rounds = 30;
    const outcomes = await Promise.all(Array.from({ length: rounds }, async (_, i) => {
      const email = `race-${i}@example.com`;
      const [password, thirdParty] = await Promise.all([
        signUpWithPassword(t.app.ctx, { email, password: "correct horse battery staple" }),
        upsertThirdPartyUser(t.app.ctx, { thirdPartyId: "google", thirdPartyUserId: `g-${i}`, email, emailVerified: true }),
      ]);
      return { email, password: password.status, thirdParty: thirdParty.status };
    }));
    for (const o of outcomes) {
      expect([o.password, o.thirdParty].filter((s) => s === "OK"), JSON.stringify(o)).toHaveLength(1);
      expect(await findPeopleByAddress(t.app.store.db, t.app.ctx.logins, o.email), o.email).toHaveLength(1);
    }
  });
});
