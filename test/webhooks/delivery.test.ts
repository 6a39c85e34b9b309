import { afterEach, describe, expect, it } from "vitest";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { eventually } from "../helpers/mail.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { startReceiver } from "../helpers/webhook-receiver.js";
import { addEndpoint, listDeliveryViews, replayDelivery } from "../../src/webhooks/endpoints.js";
import { webhookRetryDelayMs } from "../../src/webhooks/worker.js";
import { insertEvent, listEvents } from "../../src/store/events.js";

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => { while (cleanup.length) await cleanup.pop()!(); });

async function setUp(backend: (typeof backends)[number], config: Record<string, unknown> = {}) {
  const t = await createTestApp({ backend, start: true, config: { webhookTimeoutMs: 1000, ...config } });
  cleanup.push(() => t.close());
  const rx = await startReceiver();
  cleanup.push(() => rx.close());
  return { t, rx };
}

const signUp = (t: TestApp, email: string) => postJson(`${t.url}/auth/signup`, credentials(email));
const signIn = (t: TestApp, email: string) => postJson(`${t.url}/auth/signin`, credentials(email));
const typeOf = (body: string) => (JSON.parse(body) as { type: string }).type;

describe.each(backends)("webhooks on $name", (backend) => {
  it("delivers each event once per webhook-id, signed so the standardwebhooks library verifies it", async () => {
    const { t, rx } = await setUp(backend);
    const ep = await addEndpoint(t.app.ctx, { url: rx.url, events: ["user.created", "user.signed_in"] });
    expect(ep.secret).toMatch(/^whsec_/);
    expect((await signUp(t, "ada@example.com")).status).toBe(200);
    await eventually(async () => rx.received.length >= 2);
    const types = rx.received.map((r) => typeOf(r.body)).sort();
    expect(types).toEqual(["user.created", "user.signed_in"]);
    for (const r of rx.received) {
      const payload = rx.verify(ep.secret, r) as { type: string; timestamp: string; data: Record<string, unknown> };
      expect(r.headers["content-type"]).toBe("application/json");
      if (payload.type === "user.created") expect(payload.data).toMatchObject({ email: "ada@example.com", method: "emailpassword" });
      expect(typeof payload.data.userId).toBe("string");
    }
    // A tampered body or another secret fails verification. The two events arrive in either order;
    // the tampering changes user.created's email, which the body is sure to hold.
    const r0 = rx.received.find((r) => typeOf(r.body) === "user.created")!;
    expect(r0.body).toContain("ada@example.com");
    expect(() => rx.verify(ep.secret, { ...r0, body: r0.body.replace("ada", "eve") })).toThrow(WebhookVerificationError);
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString("base64")}`).verify(r0.body, r0.headers)).toThrow(WebhookVerificationError);
    // Once each: after both are recorded as delivered, a pass sends nothing more; the ids are distinct.
    await eventually(async () => (await listDeliveryViews(t.app.ctx, { status: "delivered" })).length === 2);
    await t.app.background.flush("webhooks");
    expect(new Set(rx.received.map((r) => r.id)).size).toBe(2);
    expect(rx.received).toHaveLength(2);
    const log = await listDeliveryViews(t.app.ctx, {});
    expect(log.map((d) => [d.status, d.attempts, d.lastStatus])).toEqual([["delivered", 1, 200], ["delivered", 1, 200]]);
  });

  it("retries after a 500 and after a timeout with backoff, under the same webhook-id, until it is delivered", async () => {
    const { t, rx } = await setUp(backend);
    const ep = await addEndpoint(t.app.ctx, { url: rx.url, events: ["user.created"] });
    rx.plan.push(500, "hang");
    expect((await signUp(t, "bob@example.com")).status).toBe(200);
    await eventually(async () => (await listDeliveryViews(t.app.ctx))[0]?.lastStatus === 500);
    let [d] = await listDeliveryViews(t.app.ctx);
    expect(d).toMatchObject({ status: "pending", attempts: 1, lastStatus: 500, lastError: "HTTP 500", nextAttemptAt: d.lastAttemptAt! + webhookRetryDelayMs(1) });
    // Not due yet: nothing is sent.
    await t.app.background.flush("webhooks");
    expect(rx.received).toHaveLength(1);

    t.clock.advance(webhookRetryDelayMs(1));
    await t.app.background.flush("webhooks"); // the endpoint holds the request past the 1 s timeout
    [d] = await listDeliveryViews(t.app.ctx);
    expect(d).toMatchObject({ status: "pending", attempts: 2, lastStatus: null, lastError: "timed out after 1000 ms" });
    expect(d.nextAttemptAt).toBe(d.lastAttemptAt! + webhookRetryDelayMs(2));

    t.clock.advance(webhookRetryDelayMs(2));
    await t.app.background.flush("webhooks");
    [d] = await listDeliveryViews(t.app.ctx);
    expect(d).toMatchObject({ status: "delivered", attempts: 3, lastStatus: 200, lastError: null, nextAttemptAt: null });
    expect(rx.received.map((r) => r.answer)).toEqual([500, "hang", 200]);
    expect(new Set(rx.received.map((r) => r.id))).toEqual(new Set([d.messageId]));
    for (const r of rx.received) expect(rx.verify(ep.secret, r)).toMatchObject({ type: "user.created" });
  });

  it("replays a delivery from the log: same webhook-id and payload, freshly signed", async () => {
    const { t, rx } = await setUp(backend);
    const ep = await addEndpoint(t.app.ctx, { url: rx.url, events: "*" });
    await signUp(t, "cy@example.com");
    // Delivered and recorded as such: a send still in flight when the clock jumps a minute would
    // outlive its lease and go out again, ahead of the replay.
    await eventually(async () => (await listDeliveryViews(t.app.ctx, { status: "delivered" })).length === 2);
    const original = (await listDeliveryViews(t.app.ctx)).find((d) => d.type === "user.created")!;
    t.clock.advance(60_000);
    const replay = await replayDelivery(t.app.ctx, original.id);
    expect(replay).toMatchObject({ status: "pending", replayOf: original.id, messageId: original.messageId, attempts: 0 });
    await eventually(async () => rx.received.length >= 3);
    const again = rx.received[2];
    expect(again.id).toBe(original.messageId);
    expect(again.body).toBe(rx.received.find((r) => r.id === original.messageId)!.body);
    expect(Number(again.headers["webhook-timestamp"])).toBe(Math.floor(t.clock.now() / 1000));
    expect(rx.verify(ep.secret, again)).toMatchObject({ type: "user.created" });
    await eventually(async () => (await listDeliveryViews(t.app.ctx, { status: "delivered" })).length === 3);
    await expect(replayDelivery(t.app.ctx, "nope")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("queues nothing for a change that rolls back, nor for events no endpoint subscribed to", async () => {
    const { t, rx } = await setUp(backend);
    await addEndpoint(t.app.ctx, { url: rx.url, events: ["user.deleted"] });
    await expect(t.app.store.writeTx(async (tx) => {
      await insertEvent(tx, { at: t.clock.now(), type: "user.deleted", userId: "u1", data: { source: "test" } });
      throw new Error("rolled back");
    })).rejects.toThrow("rolled back");
    await signUp(t, "dee@example.com"); // user.created and user.signed_in: not subscribed
    await t.app.background.flush("webhooks");
    expect(await listDeliveryViews(t.app.ctx)).toEqual([]);
    expect(rx.received).toEqual([]);
  });

  it("disables an endpoint after its failure streak, with an event the other endpoints receive", async () => {
    const { t, rx } = await setUp(backend, { webhookFailureLimit: 3 });
    const dead = await startReceiver();
    const deadUrl = dead.url;
    await dead.close(); // nothing listens there any more: connection refused
    const bad = await addEndpoint(t.app.ctx, { url: deadUrl, events: ["user.signed_in"] });
    await addEndpoint(t.app.ctx, { url: rx.url, events: ["webhook.endpoint_disabled"] });
    await signUp(t, "eve@example.com");
    for (let i = 0; i < 2; i++) await signIn(t, "eve@example.com");
    await eventually(async () => rx.received.length >= 1);
    const payload = JSON.parse(rx.received[0].body) as { type: string; data: Record<string, unknown> };
    expect(payload).toMatchObject({ type: "webhook.endpoint_disabled", data: { endpointId: bad.id, url: deadUrl, failures: 3 } });
    expect(String(payload.data.lastError)).toMatch(/ECONNREFUSED/);
    expect(await listEvents(t.app.store.db, { type: "webhook.endpoint_disabled" })).toHaveLength(1);
    // Disabled: nothing more is sent to it, and nothing is lost: the next sign-in's delivery waits, pending and untried.
    const before = (await listDeliveryViews(t.app.ctx, { endpointId: bad.id })).length;
    await signIn(t, "eve@example.com");
    await t.app.background.flush("webhooks");
    const after = await listDeliveryViews(t.app.ctx, { endpointId: bad.id });
    expect(after.length).toBe(before + 1);
    expect(after.filter((d) => d.attempts === 0).map((d) => d.status)).toEqual(["pending"]);
  });
});
