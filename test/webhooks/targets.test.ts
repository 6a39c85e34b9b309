import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { listDeliveryViews } from "../../src/webhooks/endpoints.js";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { eventually } from "../helpers/mail.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { startReceiver } from "../helpers/webhook-receiver.js";
import { admin, KEY } from "../http/admin/admin-client.js";

/**
 * Finding 8 of the sign-in hardening: webhook endpoints could point at loopback, private,
 * link-local and metadata addresses (in any notation, or behind a DNS name), and the delivery log
 * then told open from closed ports. In production such targets are refused at registration and at
 * connect time (on the resolved address), and the log says only "blocked".
 */
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => { while (cleanup.length) await cleanup.pop()!(); });
const SECRET = `whsec_${Buffer.alloc(32, 3).toString("base64")}`;
const BLOCKED = "url points at a loopback, private, link-local or metadata address; webhooks go to public addresses unless --webhook-allow-networks includes the network";

async function app(backend: (typeof backends)[number], config: Record<string, unknown> = {}): Promise<TestApp> {
  const t = await createTestApp({ backend, start: true, config: { mode: "production", adminApiKey: KEY, webhookTimeoutMs: 2000, ...config } });
  cleanup.push(() => t.close());
  return t;
}

describe.each(backends)("webhook targets ($name)", (backend) => {
  it("registration refuses internal addresses in every notation and behind a DNS name, with a 400 that adds nothing", async () => {
    const t = await app(backend);
    const internal = [
      "http://127.0.0.1:8080/", "http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/", "http://0x7f.0.0.1/", "http://2130706433/", "http://0177.0.0.1/",
      "http://[::1]/", "http://localhost:9/", "http://LOCALHOST:9/", "http://10.1.2.3/", "http://172.16.0.1/", "http://192.168.1.1/", "http://169.254.169.254/latest/meta-data/",
      "http://[fd00:ec2::254]/", "http://[fe80::1]/", "http://100.100.100.200/", "http://0.0.0.0/", "http://[::]/", "http://[64:ff9b::7f00:1]/", "http://[2002:7f00:1::]/",
    ];
    for (const url of internal) {
      const r = await admin(t, "POST", "/webhooks", { url, events: "*" });
      expect({ url, status: r.status, body: r.body }).toEqual({ url, status: 400, body: { message: BLOCKED } });
    }
    expect((await admin(t, "GET", "/webhooks")).body.endpoints).toEqual([]);
    // A public address is fine (nothing is sent until an event).
    expect((await admin(t, "POST", "/webhooks", { url: "https://93.184.215.14/hooks", events: ["user.created"] })).status).toBe(201);
  });

  it("connect time: an endpoint from the config file that resolves to loopback is blocked, open and closed ports alike", async () => {
    const rx = await startReceiver();
    cleanup.push(() => rx.close());
    const closed: Server = createServer();
    await new Promise<void>((ok) => closed.listen(0, "127.0.0.1", ok));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((ok) => closed.close(() => ok()));
    const port = new URL(rx.url).port;
    const t = await app(backend, {
      webhooks: [
        { url: `http://localhost:${port}/open`, secret: SECRET, events: ["user.created"] },
        { url: `http://localhost:${closedPort}/closed`, secret: SECRET, events: ["user.created"] },
        { url: `http://[::ffff:127.0.0.1]:${port}/mapped`, secret: SECRET, events: ["user.created"] },
      ],
    });
    expect((await postJson(`${t.url}/auth/signup`, credentials("ada@example.com"))).status).toBe(200);
    // Wait for each attempt's outcome, not its start: a delivery counts its attempt when it is claimed.
    await eventually(async () => (await listDeliveryViews(t.app.ctx, {})).filter((d) => d.lastError !== null).length === 3);
    const log = await listDeliveryViews(t.app.ctx, {});
    expect(log.map((d) => [d.lastStatus, d.lastError])).toEqual([[null, "blocked"], [null, "blocked"], [null, "blocked"]]);
    expect(rx.received).toEqual([]);
  });

  it("--webhook-allow-networks lets a named network through; development mode allows loopback", async () => {
    const rx = await startReceiver();
    cleanup.push(() => rx.close());
    const allowed = await app(backend, { webhookAllowNetworks: ["127.0.0.0/8"] });
    const added = await admin(allowed, "POST", "/webhooks", { url: rx.url, events: ["user.created"] });
    expect(added.status).toBe(201);
    expect((await admin(allowed, "POST", "/webhooks", { url: "http://10.0.0.1/", events: "*" })).status).toBe(400);
    await postJson(`${allowed.url}/auth/signup`, credentials("bob@example.com"));
    await eventually(async () => rx.received.length === 1);

    const dev = await app(backend, { mode: "development" });
    expect((await admin(dev, "POST", "/webhooks", { url: `http://localhost:${new URL(rx.url).port}/`, events: "*" })).status).toBe(201);
    expect((await admin(dev, "POST", "/webhooks", { url: "http://169.254.169.254/", events: "*" })).status).toBe(400);
  });
});
