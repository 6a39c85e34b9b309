import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listSigningKeys } from "../../src/core/signing-keys.js";
import { listEvents } from "../../src/store/events.js";
import { queueMail } from "../../src/core/mail-queue.js";
import { listOutbox } from "../../src/core/ops-views.js";
import { claimDueMessages, listOutboxMessages, markMessageFailed } from "../../src/store/outbox.js";
import { addEndpoint, disableEndpointByOperator, listDeliveryViews } from "../../src/webhooks/endpoints.js";
import { insertDelivery } from "../../src/webhooks/store.js";
import { backends } from "../helpers/backends.js";
import { createTestAdmin, dashboardSession, type DashboardClient, type TestAdmin } from "../helpers/dashboard.js";
import { eventually } from "../helpers/mail.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { startReceiver } from "../helpers/webhook-receiver.js";

/** The page's text with tags dropped and spaces folded, to read figures as a person does. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
const statOf = (html: string, label: string) => Number(new RegExp(`([\\d,]+) ${label}`).exec(textOf(html))?.[1].replace(/,/g, "") ?? NaN);

/** The dashboard's operations pages over HTTP (the real listener and mount), on SQLite and PostgreSQL. */
describe.each(backends)("dashboard operations ($name)", (backend) => {
  let t: TestApp;
  let admin: TestAdmin;
  let c: DashboardClient;
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    rx = await startReceiver();
    t = await createTestApp({ backend, start: true });
    admin = await createTestAdmin(t.app);
    c = await dashboardSession(t.url, admin);
  });
  afterAll(async () => { await t.close(); await rx.close(); });

  /** A POST's redirect, followed: the page it lands on (with its message). */
  const act = async (path: string, form: Record<string, string> = {}) => {
    const res = await c.post(path, form);
    expect(res.status, `${path}: ${res.status}`).toBe(303);
    return (await c.get(res.headers.get("location")!)).text();
  };

  it("with no webhook endpoints, says how to add one in HTML (no literal Markdown), naming the command as launched", async () => {
    const html = await (await c.get("/admin/webhooks")).text();
    expect(html).toContain("No webhook endpoints. Add one with <code>authsvc webhooks add</code>, the admin API, or the <code>webhooks</code> setting");
    expect(html).not.toContain("`");
  });

  it("refuses every operations POST without the admin session, and without the CSRF token; nothing changes", async () => {
    const keys = await listSigningKeys(t.app.ctx);
    const ep = await addEndpoint(t.app.ctx, { url: rx.url, events: ["user.created"] });
    const posts = ["/admin/outbox/x/retry", "/admin/keys/rotate", `/admin/webhooks/${ep.id}/disable`, `/admin/webhooks/${ep.id}/enable`, "/admin/webhooks/deliveries/x/replay"];
    for (const path of posts) {
      const anonymous = await fetch(`${t.url}${path}`, { method: "POST", headers: { origin: t.url, "content-type": "application/x-www-form-urlencoded" }, body: "confirm=rotate", redirect: "manual" });
      expect(anonymous.status, path).toBe(403);
      const noToken = await fetch(`${t.url}${path}`, { method: "POST", headers: { cookie: c.cookie, origin: t.url, "content-type": "application/x-www-form-urlencoded" }, body: "confirm=rotate", redirect: "manual" });
      expect(noToken.status, path).toBe(403);
      const wrongToken = await c.post(path, { csrf: "x".repeat(43), confirm: "rotate" });
      expect(wrongToken.status, path).toBe(403);
    }
    expect(await listSigningKeys(t.app.ctx)).toEqual(keys);
    expect((await c.get("/admin/webhooks")).status).toBe(200);
    expect(await listEvents(t.app.store.db, { type: "webhook.endpoint_disabled" })).toEqual([]);
    // And the pages ask for a session first.
    for (const path of ["/admin", "/admin/outbox", "/admin/webhooks", "/admin/keys", "/admin/config"]) {
      const res = await fetch(`${t.url}${path}`, { redirect: "manual" });
      expect(res.status, path).toBe(303);
      expect(res.headers.get("location"), path).toMatch(/^\/admin\/sign-in\?/);
    }
  });

  it("the overview's numbers move with sign-ups, sign-ins and failed sign-ins", async () => {
    const before = await (await c.get("/admin")).text();
    expect(before).toContain('<ul class="stats">');
    expect((await postJson(`${t.url}/auth/signup`, credentials("olga@example.com"))).status).toBe(200);
    await postJson(`${t.url}/auth/signin`, credentials("olga@example.com"));
    await postJson(`${t.url}/auth/signin`, credentials("olga@example.com", "wrong wrong wrong wrong"));
    await t.app.ctx.deferred.drain();
    const after = await (await c.get("/admin")).text();
    expect(statOf(after, "sign-ins today")).toBe(statOf(before, "sign-ins today") + 2);
    expect(statOf(after, "failed sign-ins today")).toBe(statOf(before, "failed sign-ins today") + 1);
    expect(statOf(after, "sign-ups today")).toBe(statOf(before, "sign-ups today") + 1);
    t.clock.advance(60_000); // the people count is a minute old at most
    expect(statOf(await (await c.get("/admin")).text(), "people")).toBe(statOf(before, "people") + 1);
  });

  it("the outbox shows a reset mail's state but never its body or token; bad filters are a 400", async () => {
    await postJson(`${t.url}/auth/signup`, credentials("pia@example.com"));
    expect((await postJson(`${t.url}/auth/user/password/reset/token`, { formFields: [{ id: "email", value: "pia@example.com" }] })).status).toBe(200);
    await t.app.ctx.deferred.drain();
    const [queued] = await listOutboxMessages(t.app.store.db, { kind: "password_reset", to: "pia@example.com" });
    const token = /token=([^&\s"]+)/.exec(queued.text_body ?? "")?.[1];
    expect(token, "the queued mail holds its link").toBeTruthy();
    for (const path of ["/admin/outbox", "/admin/outbox?state=pending", "/admin", `/admin/outbox?state=${queued.status}`]) {
      const html = await (await c.get(path)).text();
      expect(html, path).not.toContain(token!);
      expect(html, path).not.toContain(decodeURIComponent(token!));
      expect(html, path).not.toContain("token=");
    }
    const page = await (await c.get("/admin/outbox")).text();
    expect(page).toContain("pia@example.com");
    expect(page).toContain("password_reset");
    expect(page).toMatch(/<th scope="col">State<\/th>/);
    for (const bad of ["/admin/outbox?state=lost", "/admin/outbox?after=1%27%20or%201%3D1--", "/admin/webhooks?state=nope", "/admin/webhooks?endpoint=ep_nope"]) {
      const res = await c.get(bad);
      expect(res.status, bad).toBeGreaterThanOrEqual(400);
      expect(res.status, bad).toBeLessThan(500);
    }
  });

  it("a failing message is sent now on request (Send now); a given-up or unknown one is refused, nothing changed", async () => {
    const queue = (to: string) => t.app.store.writeTx((tx) => queueMail(tx, t.app.ctx, { kind: "password_changed", to, vars: { link: "https://app.example/sign-in" } }));
    const failing = await queue("rita@example.com");
    const gone = await queue("sam@example.com");
    const now = t.clock.now();
    await claimDueMessages(t.app.store.db, t.app.store.dialect, { now, owner: "test", leaseUntil: now + 60_000, limit: 100 });
    await markMessageFailed(t.app.store.db, failing, "test", { error: "451 try later", nextAttemptAt: now + 3_600_000, giveUp: false });
    await markMessageFailed(t.app.store.db, gone, "test", { error: "550 no", nextAttemptAt: now, giveUp: true });
    const page = await (await c.get("/admin/outbox?state=retrying")).text();
    expect(page).toContain(`/admin/outbox/${failing}/retry`);
    expect(page).not.toContain(`/admin/outbox/${gone}/retry`);
    expect(textOf(await act(`/admin/outbox/${gone}/retry`))).toContain("Only a message waiting to be retried");
    expect(textOf(await act("/admin/outbox/nope/retry"))).toContain("No such message");
    expect(textOf(await act(`/admin/outbox/${failing}/retry`))).toContain("due now");
    const row = (await listOutbox(t.app.ctx, { limit: 1000 })).items.find((m) => m.id === failing)!;
    // Sent at once by the running worker, or at least due now.
    expect(row.state === "sent" || row.nextAttemptAt! <= t.clock.now()).toBe(true);
    const [ev] = await listEvents(t.app.store.db, { type: "mail.retry_requested" });
    expect(ev.admin_id).toBe(admin.id);
    expect(JSON.parse(ev.data!)).toEqual({ outboxId: failing, source: `admin:${admin.id}` });
  });

  it("webhooks: endpoints without secrets, disable and enable, deliveries with their state, send again", async () => {
    const ep = await addEndpoint(t.app.ctx, { url: `${rx.url}?for=dash`, events: ["user.created"] });
    await postJson(`${t.url}/auth/signup`, credentials("quin@example.com"));
    await t.app.background.flush("webhooks");
    // The running worker may have taken the delivery before flush: the receiver has it a moment
    // before the worker records the answer, so wait for the record the page shows.
    await eventually(async () => (await listDeliveryViews(t.app.ctx, { endpointId: ep.id, status: "delivered" })).length === 1);
    const page = await (await c.get(`/admin/webhooks?endpoint=${ep.id}&state=delivered`)).text();
    expect(page).toContain(`${rx.url}?for=dash`.replace(/&/g, "&amp;"));
    expect(page).not.toContain(ep.secret);
    expect(page).not.toContain("whsec_");
    expect(textOf(page)).toMatch(/user\.created .* delivered .* HTTP 200/);

    const off = await act(`/admin/webhooks/${ep.id}/disable`);
    expect(off).toContain("Disabled");
    expect(textOf(off)).toContain(`turned off by admin:${admin.id}`);
    expect(textOf(await act(`/admin/webhooks/${ep.id}/disable`))).toContain("disabled already");
    const on = await act(`/admin/webhooks/${ep.id}/enable`);
    expect(on).toContain("Enabled");
    expect(textOf(await act("/admin/webhooks/ep_nope/enable"))).toContain("No such webhook endpoint");

    const delivery = /\/admin\/webhooks\/deliveries\/([^/"]+)\/replay/.exec(page)![1];
    const quins = () => rx.received.filter((m) => m.body.includes("quin@example.com")).length;
    const sent = quins();
    const replayed = await act(`/admin/webhooks/deliveries/${delivery}/replay`);
    expect(replayed).toContain("Queued");
    await t.app.background.flush("webhooks");
    await eventually(async () => quins() === sent + 1);
    expect(textOf(await act("/admin/webhooks/deliveries/nope/replay"))).toContain("No such webhook delivery");
    const events = await listEvents(t.app.store.db, { adminId: admin.id });
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(["webhook.endpoint_disabled", "webhook.endpoint_enabled", "webhook.delivery_replayed"]));
  });

  it("the overview counts webhook deliveries waiting and given up, each linking to them; an admin's webhook actions link to the webhooks page", async () => {
    await t.app.background.flush("webhooks");
    const ep = await addEndpoint(t.app.ctx, { url: `${rx.url}?for=counts`, events: ["user.created"] });
    await disableEndpointByOperator(t.app.ctx, ep.id, "cli"); // its deliveries wait until it is enabled again
    const before = await (await c.get("/admin")).text();
    const now = t.clock.now();
    const row = { message_id: "msg_counts", endpoint_id: ep.id, event_type: "user.created", payload: "{}", created_at: now, attempts: 0, next_attempt_at: now,
      lease_until: null, lease_owner: null, last_status: null, last_error: null, last_attempt_at: null, delivered_at: null, replay_of: null };
    await insertDelivery(t.app.store.db, { ...row, id: "dl_counts_waiting", status: "pending" });
    await insertDelivery(t.app.store.db, { ...row, id: "dl_counts_failed", status: "failed", attempts: 8 });
    const after = await (await c.get("/admin")).text();
    expect(statOf(after, "webhook deliveries waiting")).toBe(statOf(before, "webhook deliveries waiting") + 1);
    expect(statOf(after, "webhook deliveries given up")).toBe(statOf(before, "webhook deliveries given up") + 1);
    // After the kernel's figures, each a link to the deliveries in that state.
    expect(after).toMatch(/mails given up<\/a><\/li><li><a href="\/admin\/webhooks\?state=pending#deliveries"><span class="value">[\d,]+<\/span> webhook deliveries waiting<\/a><\/li><li><a href="\/admin\/webhooks\?state=failed#deliveries">/);
    // The previous test's enable, disable and replay were this admin's.
    expect(after).toContain('<a href="/admin/webhooks">webhook.delivery_replayed</a>');
  });

  it("signing keys: rotation needs the typed word, then signs with the new key, publishes it, and names the admin", async () => {
    const before = await listSigningKeys(t.app.ctx);
    const page = await (await c.get("/admin/keys")).text();
    expect(page).toContain(before[0].kid);
    expect(page).not.toMatch(/"d":|private/i);
    for (const form of [{}, { confirm: "yes" }, { confirm: "rotat" }] as Array<Record<string, string>>) {
      const refused = await act("/admin/keys/rotate", form);
      expect(textOf(refused)).toContain("Nothing changed");
    }
    expect(await listSigningKeys(t.app.ctx)).toEqual(before);
    t.clock.advance(1000);
    const done = await act("/admin/keys/rotate", { confirm: "rotate" });
    const [fresh] = await listSigningKeys(t.app.ctx);
    expect(fresh.kid).not.toBe(before[0].kid);
    expect(done).toContain(`New signing key ${fresh.kid}`);
    expect((await t.app.ctx.keys.signingKey()).kid).toBe(fresh.kid);
    const jwks = await (await fetch(`${t.url}/auth/jwt/jwks.json`)).json() as { keys: Array<{ kid: string }> };
    expect(jwks.keys.map((k) => k.kid)).toEqual(expect.arrayContaining([fresh.kid, before[0].kid]));
    const [ev] = await listEvents(t.app.store.db, { type: "signing_key.rotated" });
    expect(ev.admin_id).toBe(admin.id);
    // The overview lists it among the newest admin actions.
    expect(textOf(await (await c.get("/admin")).text())).toMatch(/Recent admin actions .*signing_key\.rotated/);
  });
});
