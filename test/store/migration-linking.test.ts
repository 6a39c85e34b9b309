import type { Kysely } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { testConfig } from "../../src/config.js";
import { getUser, listUsers } from "../../src/core/users.js";
import { signInWithPassword } from "../../src/methods/email-password/accounts.js";
import { upsertThirdPartyUser } from "../../src/methods/third-party/sign-in-up.js";
import { openStore } from "../../src/store/database.js";
import { migrations } from "../../src/store/migrations/index.js";
import { migrateToLatest } from "../../src/store/migrator.js";
import { hashPassword } from "../../src/core/passwords.js";
import { backends } from "../helpers/backends.js";

/** The migrations of the release before account linking (later ones, e.g. 012's index on primary_user_id, build on it). */
const previousRelease = migrations.slice(0, migrations.findIndex((m) => m.name === "005-account-linking"));

describe.each(backends)("account-linking migration on a database of the previous release ($name)", (backend) => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (cleanup.length) await cleanup.pop()!();
  });

  it("keeps every user as they were (own id, one method, not primary); verified duplicates become one person, the older id kept, at their next sign-in", async () => {
    const db = await backend.create();
    cleanup.push(db.drop);
    const t0 = 1_700_000_000_000;
    // The old release's schema and the rows its code wrote: a password user, a separate Google
    // user with the same verified address (it had no linking), and an unrelated third-party user.
    const old = openStore({ url: db.url });
    await migrateToLatest(old, () => t0, previousRelease);
    const raw = old.db as unknown as Kysely<any>;
    const hash = await hashPassword("correct horse battery staple", 4);
    await raw.insertInto("users").values([
      { id: "ada-password", email: "ada@example.com", time_joined: t0, updated_at: t0 },
      { id: "ada-google", email: "ada@example.com", time_joined: t0 + 1000, updated_at: t0 + 1000 },
      { id: "zed-github", email: "zed@example.com", time_joined: t0 + 2000, updated_at: t0 + 2000 },
    ]).execute();
    await raw.insertInto("email_password_credentials").values({ user_id: "ada-password", email: "ada@example.com", password_hash: hash, created_at: t0, updated_at: t0 }).execute();
    await raw.insertInto("third_party_identities").values([
      { provider_id: "google", provider_user_id: "g-1", user_id: "ada-google", email: "ada@example.com", created_at: t0 + 1000, updated_at: t0 + 1000 },
      { provider_id: "github", provider_user_id: "h-1", user_id: "zed-github", email: "zed@example.com", created_at: t0 + 2000, updated_at: t0 + 2000 },
    ]).execute();
    await raw.insertInto("verified_emails").values([
      { user_id: "ada-password", email: "ada@example.com", verified_at: t0 },
      { user_id: "ada-google", email: "ada@example.com", verified_at: t0 + 1000 },
    ]).execute();
    await old.close();

    const app = await createApp(testConfig({ database: db.url }));
    cleanup.push(() => app.close());
    expect(await app.migrate()).toEqual(migrations.slice(previousRelease.length).map((m) => m.name));
    const ctx = app.ctx;

    // Nothing changed for anyone: same ids, one method each, nobody primary, three people listed.
    for (const id of ["ada-password", "ada-google", "zed-github"]) {
      const u = await getUser(ctx, id);
      expect(u).toMatchObject({ id, isPrimaryUser: false });
      expect(u?.loginMethods).toHaveLength(1);
    }
    expect((await listUsers(ctx)).map((u) => u.id)).toEqual(["ada-password", "ada-google", "zed-github"]);

    // Both of Ada's logins have the address verified: her next Google sign-in makes them one
    // person, under the id the app has known longest.
    const signedIn = await upsertThirdPartyUser(ctx, { thirdPartyId: "google", thirdPartyUserId: "g-1", email: "ada@example.com", emailVerified: true });
    expect(signedIn).toMatchObject({ status: "OK", recipeUserId: "ada-google", user: { id: "ada-password", isPrimaryUser: true } });
    const byPassword = await signInWithPassword(ctx, { email: "ada@example.com", password: "correct horse battery staple" });
    expect(byPassword).toMatchObject({ status: "OK", recipeUserId: "ada-password", user: { id: "ada-password" } });
    expect((await listUsers(ctx)).map((u) => u.id)).toEqual(["ada-password", "zed-github"]);
    expect(await getUser(ctx, "zed-github")).toMatchObject({ id: "zed-github", isPrimaryUser: false });
  });
});
