import { afterEach, describe, expect, it } from "vitest";
import { listEvents } from "../../src/store/events.js";
import { backends } from "../helpers/backends.js";
import { createTestApp } from "../helpers/test-app.js";
import { eventually } from "../helpers/mail.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { startReceiver } from "../helpers/webhook-receiver.js";
import { admin, KEY } from "../http/admin/admin-client.js";

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => { while (cleanup.length) await cleanup.pop()!(); });

describe.each(backends)("webhooks admin API on $name", (backend) => {
  it("adds, lists, replays, re-enables and removes endpoints; bad input is a 400 that changes nothing", async () => {
    const rx = await startReceiver();
    cleanup.push(() => rx.close());
    const configured = { url: "http://127.0.0.1:9/from-config", secret: `whsec_${Buffer.alloc(32, 1).toString("base64")}`, events: "*" as const };
    const t = await createTestApp({ backend, start: true, config: { adminApiKey: KEY, webhooks: [configured] } });
    cleanup.push(() => t.close());

    for (const bad of [{ url: "ftp://x" }, { url: rx.url, events: ["user.nope"] }, { url: rx.url, secret: "short" }, { url: rx.url, extra: 1 }, {}]) {
      const r = await admin(t, "POST", "/webhooks", bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(typeof r.body.message).toBe("string");
    }
    const added = await admin(t, "POST", "/webhooks", { url: rx.url, events: ["user.created"], description: "app" });
    expect(added.status).toBe(201);
    expect(added.body.endpoint).toMatchObject({ url: rx.url, events: ["user.created"], source: "api", enabled: true, description: "app" });
    const secret = added.body.endpoint.secret as string;
    expect(secret).toMatch(/^whsec_/);

    const list = await admin(t, "GET", "/webhooks");
    expect(list.status).toBe(200);
    expect(list.body.endpoints.map((e: { source: string }) => e.source).sort()).toEqual(["api", "config"]);
    expect(JSON.stringify(list.body)).not.toContain("whsec_");

    await postJson(`${t.url}/auth/signup`, credentials("fay@example.com"));
    await eventually(async () => rx.received.length === 1);
    expect(rx.verify(secret, rx.received[0])).toMatchObject({ type: "user.created" });
    const log = await admin(t, "GET", `/webhook-deliveries?endpoint=${added.body.endpoint.id}`);
    expect(log.status).toBe(200);
    await eventually(async () => (await admin(t, "GET", `/webhook-deliveries?endpoint=${added.body.endpoint.id}&status=delivered`)).body.deliveries.length === 1);
    const [d] = (await admin(t, "GET", `/webhook-deliveries?endpoint=${added.body.endpoint.id}`)).body.deliveries;
    expect(d).toMatchObject({ type: "user.created", status: "delivered", attempts: 1, lastStatus: 200 });
    expect((await admin(t, "GET", "/webhook-deliveries?status=lost")).status).toBe(400);
    expect((await admin(t, "GET", "/webhook-deliveries?limit=0")).status).toBe(400);

    const replay = await admin(t, "POST", `/webhook-deliveries/${encodeURIComponent(d.id)}/replay`);
    expect(replay.status).toBe(201);
    expect(replay.body.delivery).toMatchObject({ replayOf: d.id, messageId: d.messageId, status: "pending" });
    await eventually(async () => rx.received.length === 2);
    expect(rx.received[1].id).toBe(d.messageId);
    expect((await admin(t, "POST", "/webhook-deliveries/nope/replay")).status).toBe(404);

    const disabled = await admin(t, "POST", `/webhooks/${added.body.endpoint.id}/disable`);
    expect(disabled.body.endpoint).toMatchObject({ enabled: false, disabledReason: "turned off by admin-api" });
    expect((await admin(t, "POST", `/webhooks/${added.body.endpoint.id}/disable`)).status).toBe(400);
    expect((await admin(t, "POST", "/webhooks/nope/disable")).status).toBe(404);
    const enabled = await admin(t, "POST", `/webhooks/${added.body.endpoint.id}/enable`);
    expect(enabled.body.endpoint).toMatchObject({ enabled: true, failureStreak: 0 });
    // Each operator action is an event naming its source.
    const events = await listEvents(t.app.store.db);
    expect(events.filter((e) => e.type.startsWith("webhook.")).map((e) => [e.type, JSON.parse(e.data!).source])).toEqual([
      ["webhook.delivery_replayed", "admin-api"], ["webhook.endpoint_disabled", "admin-api"], ["webhook.endpoint_enabled", "admin-api"],
    ]);
    const cfg = list.body.endpoints.find((e: { source: string }) => e.source === "config");
    expect((await admin(t, "DELETE", `/webhooks/${cfg.id}`)).status).toBe(400);
    expect((await admin(t, "DELETE", `/webhooks/${added.body.endpoint.id}`)).body).toEqual({ deleted: added.body.endpoint.id });
    expect((await admin(t, "DELETE", `/webhooks/${added.body.endpoint.id}`)).status).toBe(404);
    expect((await admin(t, "GET", "/webhooks")).body.endpoints.map((e: { id: string }) => e.id)).toEqual([cfg.id]);
  });
});
