import { afterEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { createTestApp } from "../helpers/test-app.js";
import { eventually } from "../helpers/mail.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { startReceiver } from "../helpers/webhook-receiver.js";
import { addEndpoint } from "../../src/webhooks/endpoints.js";
import { WEBHOOK_PER_ENDPOINT } from "../../src/webhooks/worker.js";

// A server's shutdown waits for the deliveries in flight, not for the whole queue: with a slow
// endpoint and a long queue, draining it all held SIGTERM for minutes (scripts/bench/webhooks.mjs
// never finished). What is not sent stays queued in the database for the next start.

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => { while (cleanup.length) await cleanup.pop()!(); });

describe.each(backends)("webhook worker shutdown on $name", { timeout: 120_000 }, (backend) => {
  it("stops after the sends in flight and leaves the rest of the queue for the next start", async () => {
    const rx = await startReceiver();
    cleanup.push(() => rx.close());
    const t = await createTestApp({ backend, config: { webhookTimeoutMs: 3000, rateLimits: false } });
    let closed = false;
    cleanup.push(async () => { if (!closed) await t.close(); });
    await addEndpoint(t.app.ctx, { url: rx.url, events: ["user.created"] });
    // 25 deliveries queued before the worker runs; the endpoint holds every request until the timeout.
    for (let i = 0; i < 25; i++) expect((await postJson(`${t.url}/auth/signup`, credentials(`u${i}@example.com`))).status).toBe(200);
    rx.plan.push(...Array.from({ length: 25 }, () => "hang" as const));
    await t.app.start();
    await eventually(async () => rx.received.length > 0);
    await t.close();
    closed = true;
    // One endpoint's share of sends in flight went out; the others were never claimed.
    expect(rx.received.length).toBeGreaterThan(0);
    expect(rx.received.length).toBeLessThanOrEqual(WEBHOOK_PER_ENDPOINT);
  });
});
