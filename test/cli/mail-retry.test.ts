import { afterEach, describe, expect, it } from "vitest";
import { queueMail } from "../../src/core/mail-queue.js";
import { listEvents } from "../../src/store/events.js";
import { claimDueMessages, listOutboxMessages, markMessageFailed } from "../../src/store/outbox.js";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

describe.each(backends)("authsvc mail retry ($name)", (backend) => {
  let t: TestApp;
  afterEach(async () => { await t.close(); });

  it("makes a failing message due now, with an event; refuses an unknown or given-up one", async () => {
    t = await createTestApp({ backend, listen: false });
    const id = await t.app.store.writeTx((tx) => queueMail(tx, t.app.ctx, { kind: "password_changed", to: "tom@example.com", vars: { link: "https://app.example/sign-in" } }));
    const now = t.clock.now();
    await claimDueMessages(t.app.store.db, t.app.store.dialect, { now, owner: "test", leaseUntil: now + 60_000, limit: 10 });
    await markMessageFailed(t.app.store.db, id, "test", { error: "451 later", nextAttemptAt: now + 3_600_000, giveUp: false });
    const db = ["--database", t.config.database];
    const ok = await runCli(["mail", "retry", id, ...db]);
    expect(ok.stderr).toBe("");
    expect(ok.stdout).toBe(`message ${id} is due now\n`);
    const [row] = await listOutboxMessages(t.app.store.db, { to: "tom@example.com" });
    expect(Number(row.next_attempt_at)).toBeLessThan(now + 3_600_000);
    expect((await listEvents(t.app.store.db, { type: "mail.retry_requested" })).map((e) => JSON.parse(e.data!))).toEqual([{ outboxId: id, source: "cli" }]);
    const unknown = await runCli(["mail", "retry", "nope", ...db]);
    expect([unknown.code, unknown.stderr]).toEqual([1, "authsvc: No such message in the outbox\n"]);
  });
});
