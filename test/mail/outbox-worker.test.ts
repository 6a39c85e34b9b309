import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { startRelay } from "../helpers/mail.js";
import { createOutboxWorker, retryDelayMs } from "../../src/mail/outbox-worker.js";
import { createSmtpTransport } from "../../src/mail/transport.js";
import { openStore } from "../../src/store/database.js";
import { listOutboxMessages } from "../../src/store/outbox.js";
import { queueMail } from "../../src/core/mail-queue.js";
import { requestPasswordReset } from "../../src/methods/email-password/password-reset.js";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { silentLogger } from "../../src/util/logger.js";

describe.each(backends)("outbox worker ($name)", (backend) => {
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let t: TestApp;
  beforeEach(async () => {
    relay = await startRelay();
    t = await createTestApp({ backend, config: { smtpUrl: relay.url, mailFrom: "Acme <no-reply@acme.test>" }, listen: false });
  });
  afterEach(async () => {
    await t.close();
    await relay.close();
  });

  it("records the relay's rejection, retries after the backoff, then delivers once and scrubs the bodies", async () => {
    await signUpWithPassword(t.app.ctx, { email: "ada@example.com", password: "correct horse battery staple" });
    relay.reject = "550 5.7.1 Relaying denied for ada@example.com";
    await requestPasswordReset(t.app.ctx, "ada@example.com");
    expect(await t.app.mail.flush()).toMatchObject({ sent: 0, failed: 1 });
    let [row] = await listOutboxMessages(t.app.store.db);
    expect(row).toMatchObject({ status: "pending", attempts: 1, lease_owner: null });
    expect(row.last_error).toContain("550 5.7.1 Relaying denied for ada@example.com");
    expect(row.next_attempt_at).toBe(t.clock.now() + retryDelayMs(1));
    expect(row.text_body).toContain("reset-password?token=");

    relay.reject = undefined;
    expect(await t.app.mail.flush()).toMatchObject({ sent: 0, failed: 0 }); // not due yet
    t.clock.advance(retryDelayMs(1));
    expect(await t.app.mail.flush()).toMatchObject({ sent: 1, failed: 0 });
    [row] = await listOutboxMessages(t.app.store.db);
    expect(row).toMatchObject({ status: "sent", attempts: 2, text_body: null, html_body: null, smtp_response: "250 Ok: queued as TEST1" });
    expect(relay.messages).toHaveLength(1);
    const m = relay.messages[0];
    expect(m.to).toEqual(["ada@example.com"]);
    expect(m.from).toBe("no-reply@acme.test");
    expect(m.messageId).toBe(row.message_id);
    expect(m.headers.get("x-authsvc-action")).toBe("reset-password");
    expect(m.headers.get("x-authsvc-expires-at")).toBe(new Date(row.created_at + 3_600_000).toISOString());
    expect(await t.app.mail.flush()).toMatchObject({ sent: 0, failed: 0 });
    expect(relay.messages).toHaveLength(1);
  });

  it("gives up after the last attempt and drops the bodies", async () => {
    relay.reject = "554 5.7.1 Spam";
    await t.app.store.writeTx((tx) => queueMail(tx, t.app.ctx, { kind: "password_changed", to: "bo@example.com", vars: { link: "http://localhost:3000/auth/reset-password" } }));
    const worker = createOutboxWorker({ store: t.app.store, clock: t.clock, logger: silentLogger, transport: createSmtpTransport(relay.url, { production: false }), from: "a@b.test", maxAttempts: 2 });
    await worker.runOnce();
    t.clock.advance(retryDelayMs(1));
    await worker.runOnce();
    const [row] = await listOutboxMessages(t.app.store.db);
    expect(row).toMatchObject({ status: "failed", attempts: 2, text_body: null, html_body: null });
    expect(row.last_error).toContain("554 5.7.1 Spam");
    t.clock.advance(86_400_000);
    expect(await worker.runOnce()).toEqual({ sent: 0, failed: 0 });
  });

  it("sends every message exactly once when two instances race on one database", async () => {
    for (let i = 0; i < 30; i++) {
      await t.app.store.writeTx((tx) => queueMail(tx, t.app.ctx, { kind: "password_changed", to: `u${i}@example.com`, vars: { link: "http://localhost:3000/auth/reset-password" } }));
    }
    // A second instance: on PostgreSQL its own connection pool to the same database. SQLite
    // instances are separate processes (better-sqlite3 blocks the thread while it waits for the
    // lock, so two connections in one test process would deadlock); here they share the connection.
    const otherStore = backend.name === "postgres" ? openStore({ url: t.config.database }) : t.app.store;
    const mk = (store: typeof otherStore) => createOutboxWorker({ store, clock: t.clock, logger: silentLogger, transport: createSmtpTransport(relay.url, { production: false }), from: "a@b.test", batchSize: 3 });
    try {
      const results = await Promise.all([mk(t.app.store).runOnce(), mk(otherStore).runOnce(), mk(otherStore).runOnce(), mk(t.app.store).runOnce()]);
      expect(results.reduce((n, r) => n + r.sent, 0)).toBe(30);
    } finally {
      if (otherStore !== t.app.store) await otherStore.close();
    }
    expect(relay.messages).toHaveLength(30);
    expect(new Set(relay.messages.map((m) => m.messageId)).size).toBe(30);
    expect(new Set(relay.messages.map((m) => m.to[0])).size).toBe(30);
    expect((await listOutboxMessages(t.app.store.db)).every((r) => r.status === "sent" && r.attempts === 1)).toBe(true);
  });

  it("retries a message whose worker died mid-delivery once its lease runs out", async () => {
    await t.app.store.writeTx((tx) => queueMail(tx, t.app.ctx, { kind: "password_changed", to: "cy@example.com", vars: { link: "http://localhost:3000/auth/reset-password" } }));
    // A worker claims the row and "dies" (never reports back): its lease holds the row.
    const { claimDueMessages } = await import("../../src/store/outbox.js");
    const now = t.clock.now();
    await t.app.store.writeTx((tx) => claimDueMessages(tx, t.app.store.dialect, { now, owner: "dead", leaseUntil: now + 120_000, limit: 10 }));
    expect(await t.app.mail.flush()).toMatchObject({ sent: 0 });
    t.clock.advance(120_001);
    expect(await t.app.mail.flush()).toMatchObject({ sent: 1 });
    expect(relay.messages).toHaveLength(1);
  });
});
