import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queueMail } from "../../src/core/mail-queue.js";
import { listOutbox, PEOPLE_COUNT_TTL_MS, readOverview } from "../../src/core/ops-views.js";
import { claimDueMessages, markMessageFailed, markMessageSent } from "../../src/store/outbox.js";
import { listEvents } from "../../src/store/events.js";
import { backends } from "../helpers/backends.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

/** Queues one mail whose link holds `token`, through the same function every flow uses. */
async function queue(t: TestApp, to: string, token: string): Promise<string> {
  return t.app.store.writeTx((tx) => queueMail(tx, t.app.ctx, { kind: "password_reset", to, vars: { link: `https://app.example/reset?token=${token}`, expiresAt: t.clock.now() + 3_600_000 } }));
}

describe.each(backends)("operations views on $name", (backend) => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ backend }); });
  afterAll(async () => { await t.close(); });

  it("counts people (cached), today's sign-ins, failed sign-ins and sign-ups from events", async () => {
    const before = await readOverview(t.app.ctx);
    expect(before.today).toMatchObject({ signIns: 0, failedSignIns: 0, signUps: 0 });
    expect((await postJson(`${t.url}/auth/signup`, credentials("ann@example.com"))).status).toBe(200);
    expect(await (await postJson(`${t.url}/auth/signin`, credentials("ann@example.com"))).json()).toMatchObject({ status: "OK" });
    expect(await (await postJson(`${t.url}/auth/signin`, credentials("ann@example.com", "not the password at all"))).json()).toMatchObject({ status: "WRONG_CREDENTIALS_ERROR" });
    expect(await (await postJson(`${t.url}/auth/signin`, credentials("nobody@example.com", "not the password at all"))).json()).toMatchObject({ status: "WRONG_CREDENTIALS_ERROR" });
    await t.app.ctx.deferred.drain(); // the failure events are written after the answer
    const after = await readOverview(t.app.ctx);
    // The sign-up started a session too: two sessions, two failures, one sign-up.
    expect(after.today).toMatchObject({ signIns: 2, failedSignIns: 2, signUps: 1 });
    // A failure names neither the address nor the account, known or not.
    const failures = await listEvents(t.app.store.db, { type: "user.sign_in_failed" });
    expect(failures.map((e) => [e.user_id, JSON.parse(e.data!)])).toEqual([[null, { method: "emailpassword" }], [null, { method: "emailpassword" }]]);
    // The people count was taken before the sign-up and is reused for a minute, then counted again.
    expect(after.people.count).toBe(before.people.count);
    t.clock.advance(PEOPLE_COUNT_TTL_MS);
    expect((await readOverview(t.app.ctx)).people.count).toBe(before.people.count + 1);
  });

  it("yesterday's events do not count today", async () => {
    const o = await readOverview(t.app.ctx);
    t.clock.advance(86_400_000);
    expect((await readOverview(t.app.ctx)).today).toMatchObject({ signIns: 0, failedSignIns: 0, signUps: 0, since: o.today.since + 86_400_000 });
  });

  it("lists the outbox by state, newest first, a page at a time, without bodies", async () => {
    const token = "tok_d1a5ef2bc9f84e0bb0e1c2d3e4f5a6b7";
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) { ids.push(await queue(t, `m${i}@example.com`, `${token}${i}`)); t.clock.advance(1000); }
    const now = t.clock.now();
    const owner = "test-worker";
    const claimed = await claimDueMessages(t.app.store.db, t.app.store.dialect, { now, owner, leaseUntil: now + 60_000, limit: 10 });
    expect(claimed.map((r) => r.id).sort()).toEqual([...ids].sort());
    const [a, b, c, d] = ids;
    await markMessageSent(t.app.store.db, a, owner, { now, response: "250 ok" });
    await markMessageFailed(t.app.store.db, b, owner, { error: "451 try later", nextAttemptAt: now + 30_000, giveUp: false });
    await markMessageFailed(t.app.store.db, c, owner, { error: "550 no such mailbox", nextAttemptAt: now, giveUp: true });
    const fresh = await queue(t, "later@example.com", `${token}x`);

    const all = await listOutbox(t.app.ctx, {});
    expect(JSON.stringify(all)).not.toContain(token);
    const stateOf = new Map(all.items.map((m) => [m.id, m.state]));
    expect(stateOf.get(a)).toBe("sent");
    expect(stateOf.get(b)).toBe("retrying");
    expect(stateOf.get(c)).toBe("failed");
    expect(stateOf.get(d)).toBe("sending");
    expect(stateOf.get(fresh)).toBe("pending");
    const retrying = await listOutbox(t.app.ctx, { state: "retrying" });
    expect(retrying.items.map((m) => [m.id, m.lastError, m.nextAttemptAt])).toEqual([[b, "451 try later", now + 30_000]]);
    expect((await listOutbox(t.app.ctx, { state: "failed" })).items.map((m) => m.id)).toEqual([c]);
    expect((await listOutbox(t.app.ctx, { state: "sending" })).items.map((m) => m.id)).toEqual([ids[4], d]);
    expect((await listOutbox(t.app.ctx, { state: "pending" })).items.map((m) => m.id)).toEqual([fresh]);
    // Pages of two: every message once, newest first.
    const seen: string[] = [];
    let after: string | undefined;
    do {
      const page = await listOutbox(t.app.ctx, { after, limit: 2 });
      seen.push(...page.items.map((m) => m.id));
      after = page.next;
    } while (after);
    expect(seen).toEqual(all.items.map((m) => m.id));
    expect(new Set(seen).size).toBe(all.items.length);
  });

  it("refuses an unknown state or a made-up cursor as bad input", async () => {
    await expect(listOutbox(t.app.ctx, { state: "lost" })).rejects.toMatchObject({ code: "BAD_INPUT" });
    await expect(listOutbox(t.app.ctx, { after: "1' or 1=1--" })).rejects.toMatchObject({ code: "BAD_INPUT" });
  });
});
