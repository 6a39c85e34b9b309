import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, createResource } from "../../src/oauth-provider/clients.js";
import type { OauthTables } from "../../src/oauth-provider/schema.js";
import { listEvents } from "../../src/store/events.js";
import { webhookEvents } from "../../src/rooms.js";
import { toWebhookPayload } from "../../src/webhooks/events.js";
import { backends } from "../helpers/backends.js";
import { authorizeInBrowser, browse, CookieJar, signUpInto, startOauthServer, type OauthServer } from "../helpers/oauth.js";
import { KEY } from "../http/admin/admin-client.js";
import type { H3Event } from "h3";
import type { DashboardRequest, DashboardResult } from "../../src/dashboard/kit.js";
import { userRoutes } from "../../src/dashboard/users/routes.js";
import { tables } from "../../src/rooms.js";
import type { HttpDeps } from "../../src/http/deps.js";

const MCP = "https://mcp.example.com/mcp";

/**
 * Connected apps: a consent is a grant the person sees (client name, redirect host, scopes and
 * resources, when) and revokes from their account, and the operator through the admin API;
 * revoking ends the app's refresh token. Events become the oauth.grant_* webhooks.
 */
describe.each(backends)("connected apps on $name", (backend) => {
  let s: OauthServer;
  let clientId = "";
  beforeAll(async () => {
    s = await startOauthServer(backend, { adminApiKey: KEY });
    await createResource(s.app.ctx, { resource: MCP, name: "Notes MCP", scopes: ["notes:read"] }, "test");
    clientId = (await createClient(s.app.ctx, { name: "Notes app", redirectUris: [`${s.url}/cb`], resources: [MCP] }, "test")).clientId;
  });
  afterAll(async () => { await s?.close(); });

  async function connect(jar: CookieJar) {
    const config = await oidc.discovery(new URL(s.url), clientId, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: `${s.url}/cb`, scope: "openid offline_access notes:read", resource: MCP, prompt: "consent", code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", state: "x" });
    const { callback } = await authorizeInBrowser(jar, s.url, url.toString());
    return { config, tokens: await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: "x" }) };
  }
  const mine = async (jar: CookieJar) => (await (await browse(jar, `${s.url}/auth/account/connected-apps`)).json()) as { status: string; apps: Array<Record<string, any>> };
  const revoke = (jar: CookieJar, grantId: unknown) => browse(jar, `${s.url}/auth/account/connected-apps/revoke`, { method: "POST", headers: { "content-type": "application/json", rid: "session" }, body: JSON.stringify({ grantId }) });
  const admin = (method: string, path: string) => fetch(`${s.url}/admin/v1${path}`, { method, headers: { authorization: `Bearer ${KEY}` } });

  it("the person lists the app they allowed and disconnects it; its refresh token ends; someone else's grant is out of reach", async () => {
    const jar = new CookieJar();
    await signUpInto(jar, s.url, "apps@example.com");
    const { config, tokens } = await connect(jar);
    const list = await mine(jar);
    expect(list.status).toBe("OK");
    expect(list.apps).toHaveLength(1);
    const app = list.apps[0];
    expect(app).toMatchObject({ clientId, clientName: "Notes app", redirectHosts: [new URL(s.url).host], scopes: ["openid", "offline_access"], resources: [{ resource: MCP, scopes: ["notes:read"] }] });
    expect(app.grantedAt).toBe(s.clock.now());

    const other = new CookieJar();
    await signUpInto(other, s.url, "other@example.com");
    expect((await mine(other)).apps).toEqual([]);
    expect(await (await revoke(other, app.grantId)).json()).toEqual({ status: "OK", revoked: 0 });
    expect((await revoke(jar, 42)).status).toBe(400);
    // Still connected: the refresh works (and rotates).
    const rotated = await oidc.refreshTokenGrant(config, tokens.refresh_token!, { resource: MCP });

    expect(await (await revoke(jar, app.grantId)).json()).toEqual({ status: "OK", revoked: 1 });
    expect((await mine(jar)).apps).toEqual([]);
    await expect(oidc.refreshTokenGrant(config, rotated.refresh_token!, { resource: MCP })).rejects.toMatchObject({ error: "invalid_grant" });

    const events = (await listEvents(s.app.ctx.store.db, { limit: 200 })).filter((e) => e.type.startsWith("oauth.grant"));
    const hooks = events.map((e) => toWebhookPayload(webhookEvents, { at: Number(e.at), type: e.type, userId: e.user_id, data: JSON.parse(e.data ?? "{}") })?.type);
    expect(hooks.sort()).toEqual(["oauth.grant_created", "oauth.grant_revoked"]);
  });

  it("the operator lists a user's grants and revokes one in the admin API; unknown ones are a 404", async () => {
    const jar = new CookieJar();
    await signUpInto(jar, s.url, "ops@example.com");
    const { config, tokens } = await connect(jar);
    const me = await (await browse(jar, `${s.url}/auth/account/me`)).json() as { user: { id: string } };
    const listed = await admin("GET", `/users/${me.user.id}/oauth-grants`);
    expect(listed.status).toBe(200);
    const { grants } = await listed.json() as { grants: Array<{ grantId: string; clientName: string }> };
    expect(grants.map((g) => g.clientName)).toEqual(["Notes app"]);
    expect((await admin("GET", "/users/nobody/oauth-grants")).status).toBe(404);
    expect((await admin("DELETE", `/users/${me.user.id}/oauth-grants/not-a-grant`)).status).toBe(404);
    const done = await admin("DELETE", `/users/${me.user.id}/oauth-grants/${grants[0].grantId}`);
    expect(await done.json()).toEqual({ revoked: grants[0].grantId });
    expect((await mine(jar)).apps).toEqual([]);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!, { resource: MCP })).rejects.toMatchObject({ error: "invalid_grant" });
  });

  it("deleting the person ends their grants: the app's refresh token is refused and none of their records is left", async () => {
    const jar = new CookieJar();
    await signUpInto(jar, s.url, "leaving@example.com");
    const { config, tokens } = await connect(jar);
    const me = await (await browse(jar, `${s.url}/auth/account/me`)).json() as { user: { id: string } };
    const records = async () => (await s.app.ctx.store.db.withTables<OauthTables>().selectFrom("oauth_records").select("model").where("account_id", "=", me.user.id).execute()).map((r) => r.model);
    expect(await records()).toEqual(expect.arrayContaining(["Grant", "RefreshToken"]));
    expect((await admin("DELETE", `/users/${me.user.id}`)).status).toBe(200);
    expect(await records()).toEqual([]);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!, { resource: MCP })).rejects.toMatchObject({ error: "invalid_grant" });
  });

  /** The dashboard's route as its mount calls it, for a signed-in admin (the form already CSRF-checked). */
  async function dashboard(method: "GET" | "POST", path: string, form: Record<string, string> = {}): Promise<DashboardResult> {
    const route = userRoutes(tables.personPage).find((r) => r.method === method && new RegExp(`^${r.path.replace(/:id/, "[^/]+")}$`).test(path))!;
    const r: DashboardRequest = {
      event: {} as H3Event, deps: { tables } as HttpDeps, ctx: s.app.ctx, admin: { id: "adm-1", email: "root@example.com" }, csrf: "csrf-token", source: "admin:adm-1",
      params: { id: path.split("/")[3] }, query: new URLSearchParams(), form: new URLSearchParams(form),
    };
    return route.handler(r);
  }

  it("the dashboard's user page shows the connected apps and revokes one", async () => {
    const jar = new CookieJar();
    await signUpInto(jar, s.url, "dash@example.com");
    const { config, tokens } = await connect(jar);
    const me = await (await browse(jar, `${s.url}/auth/account/me`)).json() as { user: { id: string } };
    const page = await dashboard("GET", `/admin/users/${me.user.id}`);
    const html = "html" in page ? page.html : "";
    expect(html).toContain('id="apps-h">Connected apps');
    expect(html).toContain("Notes app");
    expect(html).toContain(`${MCP} (notes:read)`);
    const [grant] = (await mine(jar)).apps;
    expect(html).toContain(`name="grantId" value="${grant.grantId}"`);
    expect(await dashboard("POST", `/admin/users/${me.user.id}/oauth-grants/revoke`, { grantId: "someone-elses" })).toMatchObject({ flash: { kind: "error" } });
    expect(await dashboard("POST", `/admin/users/${me.user.id}/oauth-grants/revoke`, { grantId: grant.grantId })).toMatchObject({ flash: { kind: "ok" } });
    expect((await mine(jar)).apps).toEqual([]);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!, { resource: MCP })).rejects.toMatchObject({ error: "invalid_grant" });
    const revoked = await listEvents(s.app.ctx.store.db, { type: "oauth.grant_revoked", userId: me.user.id });
    expect(revoked.map((e) => JSON.parse(e.data ?? "{}").source)).toEqual(["admin:adm-1"]);
  });
});
