import { afterEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { createTestApp } from "../helpers/test-app.js";
import { eventually } from "../helpers/mail.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { startReceiver } from "../helpers/webhook-receiver.js";
import { addEndpoint, listDeliveryViews, syncConfiguredEndpoints } from "../../src/webhooks/endpoints.js";
import { sealEndpointSecret } from "../../src/webhooks/secrets.js";
import { findEndpoint, updateEndpoint } from "../../src/webhooks/store.js";

const SERVER_SECRET = "a server secret of at least thirty-two characters";
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => { while (cleanup.length) await cleanup.pop()!(); });

describe.each(backends)("webhook endpoint secrets at rest ($name)", (backend) => {
  async function setUp() {
    const t = await createTestApp({ backend, start: true, config: { secret: SERVER_SECRET, webhookTimeoutMs: 1000 } });
    cleanup.push(() => t.close());
    const rx = await startReceiver();
    cleanup.push(() => rx.close());
    const stored = async (id: string) => (await findEndpoint(t.app.store.db, id))!.secret;
    return { t, rx, stored };
  }

  it("are sealed with the server secret, and deliveries are still signed with the endpoint's own secret", async () => {
    const { t, rx, stored } = await setUp();
    const ep = await addEndpoint(t.app.ctx, { url: rx.url, events: ["user.created"] });
    const row = await stored(ep.id);
    expect(row).toMatch(/^enc:v1:/);
    expect(row).not.toContain(ep.secret.slice(6, 20));
    expect((await postJson(`${t.url}/auth/signup`, credentials("ada@example.com"))).status).toBe(200);
    await eventually(async () => rx.received.length === 1);
    expect(rx.verify(ep.secret, rx.received[0])).toMatchObject({ type: "user.created" });
  });

  it("stored in plain text before a server secret was set are sealed at start, and keep working", async () => {
    const { t, rx, stored } = await setUp();
    const ep = await addEndpoint(t.app.ctx, { url: rx.url, events: ["user.created"] });
    await updateEndpoint(t.app.store.db, ep.id, { secret: ep.secret });
    await syncConfiguredEndpoints(t.app.ctx, []); // what start does
    expect(await stored(ep.id)).toMatch(/^enc:v1:/);
    expect((await postJson(`${t.url}/auth/signup`, credentials("bob@example.com"))).status).toBe(200);
    await eventually(async () => rx.received.length === 1);
    expect(rx.verify(ep.secret, rx.received[0])).toMatchObject({ type: "user.created" });
  });

  it("sealed under another server secret (or moved to another endpoint) are never used: nothing is sent, the delivery says why", async () => {
    const { t, rx, stored } = await setUp();
    const ep = await addEndpoint(t.app.ctx, { url: rx.url, events: ["user.created"] });
    const other = await addEndpoint(t.app.ctx, { url: `${rx.url}/other`, events: ["user.created"] });
    await updateEndpoint(t.app.store.db, ep.id, { secret: await stored(other.id) });
    await updateEndpoint(t.app.store.db, other.id, { secret: sealEndpointSecret(other.secret, "another server secret of thirty-two characters", other.id) });
    expect((await postJson(`${t.url}/auth/signup`, credentials("eve@example.com"))).status).toBe(200);
    await eventually(async () => (await listDeliveryViews(t.app.ctx, {})).every((d) => d.lastError === "endpoint secret unreadable"));
    expect(rx.received).toHaveLength(0);
    expect((await postJson(`${t.url}/auth/signin`, credentials("eve@example.com"))).status).toBe(200);
  });
});
