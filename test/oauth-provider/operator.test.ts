import { afterEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { createTestApp } from "../helpers/test-app.js";
import { admin, KEY } from "../http/admin/admin-client.js";
import { useCliDatabase } from "../cli/fixture.js";

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => { while (cleanup.length) await cleanup.pop()!(); });

/** Clients and resources are the operator's: the admin API and the CLI, on both databases. */
describe.each(backends)("OAuth clients and resources by the operator on $name", (backend) => {
  it("admin API: creates, lists and deletes; a confidential client's secret is shown once; bad input is a 400 that changes nothing", async () => {
    const t = await createTestApp({ backend, config: { adminApiKey: KEY } });
    cleanup.push(() => t.close());
    for (const bad of [{ resource: "ftp://x" }, { resource: "https://a.example.com/x#frag" }, { resource: "http://api.example.com/" }, { resource: "https://a.example.com/", scopes: ["openid"] }, { resource: "https://a.example.com/", extra: 1 }]) {
      expect((await admin(t, "POST", "/oauth/resources", bad)).status, JSON.stringify(bad)).toBe(400);
    }
    const r = await admin(t, "POST", "/oauth/resources", { resource: "https://mcp.example.com/mcp", scopes: ["notes:read"] });
    expect(r.status).toBe(201);
    expect(r.body.resource).toMatchObject({ resource: "https://mcp.example.com/mcp", name: "mcp.example.com", scopes: ["notes:read"] });
    expect((await admin(t, "POST", "/oauth/resources", { resource: "https://mcp.example.com/mcp" })).status).toBe(409);
    for (const bad of [
      { name: "x" }, { name: "x", redirectUris: ["http://app.example.com/cb"] }, { name: "x", redirectUris: ["javascript:alert(1)"] },
      { name: "x", redirectUris: ["https://app.example.com/cb"], resources: ["https://unknown.example.com/"] },
      { name: "x", grantTypes: ["client_credentials"] }, { name: "x", redirectUris: ["https://app.example.com/cb"], grantTypes: ["password"] },
      { name: "x", redirectUris: ["https://app.example.com/cb"], scopes: ["notes:read"] },
    ]) expect((await admin(t, "POST", "/oauth/clients", bad)).status, JSON.stringify(bad)).toBe(400);
    expect((await admin(t, "GET", "/oauth/clients")).body).toEqual({ clients: [] });
    const c = await admin(t, "POST", "/oauth/clients", { name: "Notes", type: "confidential", redirectUris: ["https://app.example.com/cb"], resources: ["https://mcp.example.com/mcp"] });
    expect(c.status).toBe(201);
    expect(c.body.client).toMatchObject({ name: "Notes", type: "confidential", redirectUris: ["https://app.example.com/cb"], scopes: ["openid", "email", "offline_access"], grantTypes: ["authorization_code", "refresh_token"] });
    expect(c.body.client.clientSecret).toMatch(/^cs_/);
    const list = await admin(t, "GET", "/oauth/clients");
    expect(list.body.clients).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain(c.body.client.clientSecret);
    expect((await admin(t, "DELETE", `/oauth/clients/${c.body.client.clientId}`)).body).toEqual({ deleted: c.body.client.clientId });
    expect((await admin(t, "DELETE", `/oauth/clients/${c.body.client.clientId}`)).status).toBe(404);
    expect((await admin(t, "DELETE", `/oauth/resources?resource=${encodeURIComponent("https://mcp.example.com/mcp")}`)).status).toBe(200);
    expect((await admin(t, "GET", "/oauth/resources")).body).toEqual({ resources: [] });
  });

  it("--oauth-provider false: no discovery documents and no /oauth paths", async () => {
    const t = await createTestApp({ backend, config: { oauthProvider: false } });
    cleanup.push(() => t.close());
    for (const path of ["/.well-known/openid-configuration", "/.well-known/oauth-authorization-server", "/oauth/authorize?client_id=x", "/oauth/jwks"]) {
      expect((await fetch(t.url + path)).status, path).toBe(404);
    }
  });

  const cli = useCliDatabase(backend);
  it("CLI: oauth resources and clients create, list and delete", async () => {
    await cli.create();
    expect(await cli.cli(["oauth", "resources", "create", "https://mcp.example.com/mcp", "--scopes", "notes:read,notes:write"])).toMatchObject({ code: 0, stdout: "created resource https://mcp.example.com/mcp (scopes: notes:read, notes:write)\n" });
    const made = await cli.cli(["oauth", "clients", "create", "--name", "CLI app", "--redirect-uri", "http://127.0.0.1/callback", "--resources", "https://mcp.example.com/mcp", "--json"]);
    expect(made.code).toBe(0);
    const client = JSON.parse(made.stdout);
    expect(client).toMatchObject({ name: "CLI app", type: "public", redirectUris: ["http://127.0.0.1/callback"] });
    expect(client.clientSecret).toBeUndefined();
    expect((await cli.cli(["oauth", "clients", "list"])).stdout).toContain(client.clientId);
    const bad = await cli.cli(["oauth", "clients", "create", "--name", "x", "--redirect-uri", "http://app.example.com/cb"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/loopback/);
    expect(await cli.cli(["oauth", "clients", "delete", client.clientId])).toMatchObject({ code: 0, stdout: `deleted OAuth client ${client.clientId}\n` });
    expect((await cli.cli(["oauth", "clients", "delete", client.clientId])).code).toBe(1);
    expect(await cli.cli(["oauth", "resources", "list"])).toMatchObject({ code: 0, stdout: "https://mcp.example.com/mcp  mcp.example.com  scopes notes:read,notes:write\n" });
  });
});
