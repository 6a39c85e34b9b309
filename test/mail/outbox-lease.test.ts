import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { startMailCatcher, type MailCatcher } from "../../src/mail/catcher.js";
import { createOutboxWorker, OUTBOX_LEASE_MS, OUTBOX_POLL_MS } from "../../src/mail/outbox-worker.js";
import { createCatcherTransport, type MailTransport } from "../../src/mail/transport.js";
import { claimDueMessages, listOutboxMessages } from "../../src/store/outbox.js";
import { listCaughtMail } from "../../src/store/caught-mail.js";
import { queueMail } from "../../src/core/mail-queue.js";
import { silentLogger } from "../../src/util/logger.js";

describe.each(backends)("outbox leases ($name)", (backend) => {
  let t: TestApp;
  let catcher: MailCatcher;
  let transport: MailTransport;
  beforeEach(async () => {
    t = await createTestApp({ backend, listen: false });
    catcher = await startMailCatcher({ store: t.app.store, clock: t.clock, logger: silentLogger, host: "127.0.0.1", port: 0, retention: 100, maxAgeMs: 86_400_000 });
    transport = createCatcherTransport(catcher.host, catcher.port);
  });
  afterEach(async () => {
    transport.close();
    await catcher.close();
    await t.close();
  });

  const queue = (to: string) => t.app.store.writeTx((tx) => queueMail(tx, t.app.ctx, { kind: "password_changed", to, vars: { link: "http://localhost:3000/auth/reset-password" } }));
  const worker = (o: { transport?: MailTransport; heartbeatMs?: number } = {}) =>
    createOutboxWorker({ store: t.app.store, clock: t.clock, logger: silentLogger, transport: o.transport ?? transport, from: "a@b.test", heartbeatMs: o.heartbeatMs });

  it("mail claimed by a worker that died is sent by another worker within 30 s of the death", async () => {
    // The poll that notices an expired lease comes at most OUTBOX_POLL_MS after it expires.
    expect(OUTBOX_LEASE_MS + OUTBOX_POLL_MS).toBeLessThanOrEqual(30_000);
    await queue("dead@example.com");
    const died = t.clock.now();
    // A worker claims the message and dies at once: no heartbeat ever renews its lease.
    const [claimed] = await t.app.store.writeTx((tx) => claimDueMessages(tx, t.app.store.dialect, { now: died, owner: "worker-that-died", leaseUntil: died + OUTBOX_LEASE_MS, limit: 10 }));
    expect(claimed.to_address).toBe("dead@example.com");

    const live = worker();
    t.clock.set(died + OUTBOX_LEASE_MS - 1000);
    expect(await live.runOnce()).toEqual({ sent: 0, failed: 0 }); // still leased: could be a slow send
    t.clock.set(died + OUTBOX_LEASE_MS + 1);
    expect(await live.runOnce()).toEqual({ sent: 1, failed: 0 });
    const caught = await listCaughtMail(t.app.store.db, { to: "dead@example.com" });
    expect(caught).toHaveLength(1);
    expect(caught[0].subject).toBe("Your password was changed");
    const [row] = await listOutboxMessages(t.app.store.db);
    expect(row).toMatchObject({ status: "sent", attempts: 2, lease_owner: null });
    await live.stop();
  });

  it("a live worker's heartbeat keeps its claim through a send longer than the lease: the mail goes out once", async () => {
    await queue("slow@example.com");
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    let started!: () => void;
    const sending = new Promise<void>((r) => { started = r; });
    const slow: MailTransport = { description: "slow", close: () => {}, send: async (m) => { started(); await gate; return transport.send(m); } };
    const a = worker({ transport: slow, heartbeatMs: 10 });
    const run = a.runOnce();
    await sending;
    const start = t.clock.now();
    const b = worker();
    for (let i = 1; i <= 4; i++) {
      t.clock.set(start + i * (OUTBOX_LEASE_MS / 2)); // two leases' worth of send time in all
      const renewed = t.clock.now() + OUTBOX_LEASE_MS;
      // Wait for a heartbeat at this clock reading before the other worker looks.
      await expect.poll(async () => (await listOutboxMessages(t.app.store.db))[0].lease_until, { timeout: 5000, interval: 10 }).toBe(renewed);
      expect(await b.runOnce()).toEqual({ sent: 0, failed: 0 });
    }
    release();
    expect(await run).toEqual({ sent: 1, failed: 0 });
    expect(await listCaughtMail(t.app.store.db, { to: "slow@example.com" })).toHaveLength(1);
    const [row] = await listOutboxMessages(t.app.store.db);
    expect(row).toMatchObject({ status: "sent", attempts: 1 });
    await a.stop();
    await b.stop();
  });
});
