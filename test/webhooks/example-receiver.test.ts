import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createTestApp } from "../helpers/test-app.js";
import { eventually } from "../helpers/mail.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { addEndpoint, listDeliveryViews, replayDelivery } from "../../src/webhooks/endpoints.js";
import { checkSecret } from "../../src/webhooks/settings.js";
// @ts-expect-error: a plain .mjs example without types, as an app would copy it
import { createWebhookReceiver } from "../../examples/webhook-receiver.mjs";

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => { while (cleanup.length) await cleanup.pop()!(); });

describe("examples/webhook-receiver.mjs", () => {
  it("verifies authsvc's deliveries with standardwebhooks, handles a replayed webhook-id once, refuses a forged one", async () => {
    const t = await createTestApp({ start: true });
    cleanup.push(() => t.close());
    const handled: Array<{ type: string; id: string; data: Record<string, unknown> }> = [];
    const secret = checkSecret(undefined); // a new whsec_ secret, as `authsvc webhooks add` makes one
    const receiver = createWebhookReceiver(secret, (e: { type: string; data: Record<string, unknown> }, id: string) => { handled.push({ type: e.type, id, data: e.data }); }) as Server;
    await new Promise<void>((ok) => receiver.listen(0, "127.0.0.1", ok));
    cleanup.push(() => new Promise<void>((ok) => receiver.close(() => ok())));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
    await addEndpoint(t.app.ctx, { url, events: ["user.created"], secret });

    await postJson(`${t.url}/auth/signup`, credentials("lee@example.com"));
    await eventually(async () => handled.length === 1);
    expect(handled[0]).toMatchObject({ type: "user.created", data: { email: "lee@example.com" } });
    await eventually(async () => (await listDeliveryViews(t.app.ctx, { status: "delivered" })).length === 1);
    const [d] = await listDeliveryViews(t.app.ctx);
    expect(d.lastStatus).toBe(204);

    // A replay reaches it (204) but is not handled twice.
    await replayDelivery(t.app.ctx, d.id);
    await eventually(async () => (await listDeliveryViews(t.app.ctx, { status: "delivered" })).length === 2);
    expect(handled).toHaveLength(1);

    // Without a valid signature: 400, nothing handled.
    const forged = await fetch(url, { method: "POST", headers: { "content-type": "application/json", "webhook-id": "msg_x", "webhook-timestamp": String(Math.floor(Date.now() / 1000)), "webhook-signature": "v1,AAAA" }, body: JSON.stringify({ type: "user.deleted", data: {} }) });
    expect(forged.status).toBe(400);
    expect(handled).toHaveLength(1);
  });
});
