import { afterEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { createTestApp } from "../helpers/test-app.js";
import { eventually } from "../helpers/mail.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { startReceiver } from "../helpers/webhook-receiver.js";
import { addEndpoint, disableEndpointByOperator, enableEndpoint, listDeliveryViews } from "../../src/webhooks/endpoints.js";

// Endpoints are sent to independently, and a disabled endpoint's events wait for it.

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => { while (cleanup.length) await cleanup.pop()!(); });

describe.each(backends)("webhook endpoints on $name", (backend) => {
  it("an endpoint that holds its answer does not delay another endpoint's deliveries", async () => {
    // The slow receiver never answers within the test: the timeout is far beyond it.
    const t = await createTestApp({ backend, start: true, config: { webhookTimeoutMs: 120_000 } });
    cleanup.push(() => t.close());
    const slow = await startReceiver();
    const fast = await startReceiver();
    cleanup.push(() => slow.close(), () => fast.close());
    slow.plan.push("hang", "hang", "hang", "hang", "hang", "hang");
    await addEndpoint(t.app.ctx, { url: slow.url, events: ["user.created"] });
    await addEndpoint(t.app.ctx, { url: fast.url, events: ["user.created"] });

    expect((await postJson(`${t.url}/auth/signup`, credentials("ada@example.com"))).status).toBe(200);
    await eventually(async () => slow.received.length === 1 && fast.received.length === 1);
    // The slow endpoint still holds its first delivery; the next event reaches the fast one anyway.
    const before = Date.now();
    expect((await postJson(`${t.url}/auth/signup`, credentials("bob@example.com"))).status).toBe(200);
    await eventually(async () => fast.received.length === 2);
    // A generous bound for a loaded machine; before lanes this waited for the slow answer (120 s).
    expect(Date.now() - before).toBeLessThan(10_000);
    expect(fast.received.map((r) => JSON.parse(r.body).data.email)).toEqual(["ada@example.com", "bob@example.com"]);
  });

  it("queues the events of a disabled endpoint and delivers them once it is enabled", async () => {
    const t = await createTestApp({ backend, start: true, config: { webhookTimeoutMs: 5000 } });
    cleanup.push(() => t.close());
    const rx = await startReceiver();
    cleanup.push(() => rx.close());
    const ep = await addEndpoint(t.app.ctx, { url: rx.url, events: ["user.created"] });
    await disableEndpointByOperator(t.app.ctx, ep.id, "cli");

    for (const email of ["ada@example.com", "bob@example.com"]) expect((await postJson(`${t.url}/auth/signup`, credentials(email))).status).toBe(200);
    await t.app.background.flush("webhooks");
    expect(rx.received).toHaveLength(0);
    const waiting = await listDeliveryViews(t.app.ctx, { endpointId: ep.id });
    expect(waiting.map((d) => [d.status, d.attempts])).toEqual([["pending", 0], ["pending", 0]]);

    await enableEndpoint(t.app.ctx, ep.id, "cli");
    await eventually(async () => rx.received.length === 2);
    expect(rx.received.map((r) => JSON.parse(r.body).data.email).sort()).toEqual(["ada@example.com", "bob@example.com"]);
    await eventually(async () => (await listDeliveryViews(t.app.ctx, { endpointId: ep.id, status: "delivered" })).length === 2);
  });
});
