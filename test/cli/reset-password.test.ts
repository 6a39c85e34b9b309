import { beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { testConfig } from "../../src/config.js";
import { signInWithPassword } from "../../src/methods/email-password/accounts.js";
import { requestPasswordReset } from "../../src/methods/email-password/password-reset.js";
import { insertIdentity } from "../../src/methods/third-party/store.js";
import { countUserTokens } from "../../src/store/one-time-tokens.js";
import { listOutboxMessages } from "../../src/store/outbox.js";
import { insertUser } from "../../src/store/users.js";
import { backends } from "../helpers/backends.js";
import { PW, useCliDatabase } from "./fixture.js";

const NEW_PW = "a completely new passphrase";

describe.each(backends)("authsvc reset-password on $name", (backend) => {
  const t = useCliDatabase(backend);
  let userId = "";
  beforeEach(async () => {
    await t.create();
    userId = JSON.parse((await t.cli(["create-user", "--email", "ada@example.com", "--password-stdin", "--json"], { stdin: PW })).stdout).id;
  });

  async function signIn(password: string): Promise<string> {
    const app = await createApp(testConfig({ database: t.url() }));
    try {
      return (await signInWithPassword(app.ctx, { email: "ada@example.com", password })).status;
    } finally {
      await app.close();
    }
  }

  it("sets the new password from stdin and revokes every live session", async () => {
    const store = t.store();
    const now = Date.now();
    await store.db.insertInto("sessions").values([
      { handle: "live-1", user_id: userId, created_at: now, expires_at: now + 3_600_000, last_refreshed_at: null, revoked_at: null, revoke_reason: null },
      { handle: "live-2", user_id: userId, created_at: now, expires_at: now + 3_600_000, last_refreshed_at: null, revoked_at: null, revoke_reason: null },
      { handle: "old", user_id: userId, created_at: now, expires_at: now + 3_600_000, last_refreshed_at: null, revoked_at: 1, revoke_reason: "signed_out" },
    ]).execute();
    const r = await t.cli(["reset-password", "--email", "Ada@Example.com", "--password-stdin"], { stdin: `${NEW_PW}\n` });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("password changed for ada@example.com; 2 session(s) revoked\n");
    const rows = await store.db.selectFrom("sessions").select(["handle", "revoked_at", "revoke_reason"]).orderBy("handle").execute();
    expect(rows.find((s) => s.handle === "old")).toEqual({ handle: "old", revoked_at: 1, revoke_reason: "signed_out" });
    for (const s of rows.filter((x) => x.handle !== "old")) {
      expect(s.revoked_at).toBeGreaterThanOrEqual(now);
      expect(s.revoke_reason).toBe("password_changed");
    }
    expect(await signIn(NEW_PW)).toBe("OK");
    expect(await signIn(PW)).toBe("WRONG_CREDENTIALS_ERROR");
  });

  it("deletes the user's outstanding reset tokens and queues the 'password changed' mail", async () => {
    const app = await createApp(testConfig({ database: t.url() }));
    try {
      expect((await requestPasswordReset(app.ctx, "ada@example.com")).status).toBe("OK");
    } finally {
      await app.close();
    }
    const store = t.store();
    expect(await countUserTokens(store.db, userId, "password_reset")).toBe(1);
    const r = await t.cli(["reset-password", "--email", "ada@example.com", "--password-stdin"], { stdin: NEW_PW });
    expect(r.code, r.stderr).toBe(0);
    expect(await countUserTokens(store.db, userId, "password_reset")).toBe(0);
    // Queued for the running server's outbox worker (the command itself sends nothing).
    const queued = await listOutboxMessages(store.db, { kind: "password_changed" });
    expect(queued.map((m) => [m.to_address, m.subject, m.status])).toEqual([["ada@example.com", "Your password was changed", "pending"]]);
  });

  it("--json reports the user and the count, without a hash", async () => {
    const r = await t.cli(["reset-password", "--email", "ada@example.com", "--password-stdin", "--json"], { stdin: NEW_PW });
    expect(JSON.parse(r.stdout)).toEqual({ id: userId, email: "ada@example.com", revokedSessions: 0 });
  });

  it("refuses a password the policy rejects (exit 1) and keeps the old one", async () => {
    const r = await t.cli(["reset-password", "--email", "ada@example.com", "--password-stdin"], { stdin: "ada@example.com" });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/could not set the password: .*email address/);
    expect(await signIn(PW)).toBe("OK");
  });

  it("fails for an unknown user with exit 1", async () => {
    const r = await t.cli(["reset-password", "--email", "nobody@example.com", "--password-stdin"], { stdin: NEW_PW });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("no user nobody@example.com");
  });

  it("tells a provider's user apart: no password to set (exit 1), and a notice instead of a reset link", async () => {
    const store = t.store();
    const now = Date.now();
    await insertUser(store.db, { id: "gh-user", email: "gh@example.com", time_joined: now, updated_at: now });
    await insertIdentity(store.db, { provider_id: "github", provider_user_id: "7", user_id: "gh-user", email: "gh@example.com", created_at: now, updated_at: now });
    const set = await t.cli(["reset-password", "gh-user", "--password-stdin"], { stdin: NEW_PW });
    expect(set.code).toBe(1);
    expect(set.stderr).toContain("gh@example.com signs in with a third-party provider and has no password");
    const link = await t.cli(["reset-password", "gh@example.com", "--send-link"]);
    expect(link.code, link.stderr).toBe(0);
    expect(link.stdout).toMatch(/^gh@example\.com signs in with a third-party provider: no reset link; a mail saying so was (queued|sent)/);
  });

  it("needs exactly one way to get the password (exit 2)", async () => {
    expect((await t.cli(["reset-password", "--email", "ada@example.com"])).code).toBe(2);
    expect((await t.cli(["reset-password", "--email", "ada@example.com", "--password-stdin"], { stdin: "" })).code).toBe(2);
  });
});
