import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createResource } from "../../src/oauth-provider/clients.js";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { startOauthServer, type OauthServer } from "../helpers/oauth.js";

/**
 * A minimal MCP-style resource server: /mcp answers 401 with the Bearer challenge naming its
 * protected-resource metadata (RFC 9728), which names authsvc; /bare answers 401 with no header and
 * has no metadata anywhere; /unregistered's metadata names scopes authsvc does not know.
 */
async function startResourceServer(authServer: string): Promise<{ origin: string; close(): Promise<void> }> {
  let origin = "";
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    const json = (body: unknown) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (path === "/mcp" || path === "/unregistered") {
      res.writeHead(401, { "www-authenticate": `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource${path}"` }).end();
    } else if (path === "/.well-known/oauth-protected-resource/mcp") {
      json({ resource: `${origin}/mcp`, authorization_servers: [authServer], scopes_supported: ["notes:read"] });
    } else if (path === "/.well-known/oauth-protected-resource/unregistered") {
      json({ resource: `${origin}/unregistered`, authorization_servers: [authServer], scopes_supported: ["files:write"] });
    } else if (path === "/bare") {
      res.writeHead(401).end();
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

describe.each(backends)("authsvc oauth check against a real authsvc on $name", (backend) => {
  let s: OauthServer;
  let rs: Awaited<ReturnType<typeof startResourceServer>>;
  beforeAll(async () => {
    s = await startOauthServer(backend);
    rs = await startResourceServer(s.url);
    await createResource(s.app.ctx, { resource: `${rs.origin}/mcp`, scopes: ["notes:read"] }, "test");
  });
  afterAll(async () => { await rs?.close(); await s?.close(); });

  it("a complete chain: every step present, exit 0, and the same report as JSON", async () => {
    const r = await runCli(["oauth", "check", `${rs.origin}/mcp`]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`ok       WWW-Authenticate names resource_metadata=${rs.origin}/.well-known/oauth-protected-resource/mcp`);
    expect(r.stdout).toContain(`ok       authorization server ${s.url}`);
    expect(r.stdout).toContain("ok       PKCE S256 supported");
    expect(r.stdout).toContain("ok       client ID metadata documents supported");
    expect(r.stdout).toContain("ok       scopes notes:read known to the authorization server");
    expect(r.stdout).toMatch(/ok {7}JWKS at .*\/oauth\/jwks \(1 key\)/);
    expect(r.stdout).not.toContain("MISSING");
    expect(r.stdout).toContain("the discovery chain is complete");
    const j = await runCli(["oauth", "check", `${rs.origin}/mcp`, "--json"]);
    expect(j.code).toBe(0);
    const report = JSON.parse(j.stdout) as { ok: boolean; checks: Array<{ id: string; status: string }> };
    expect(report.ok).toBe(true);
    expect(report.checks.find((c) => c.id === "pkce-s256")).toMatchObject({ status: "ok" });
  });

  it("what is missing, with the fix, and exit 1: no metadata; a resource the authorization server does not know", async () => {
    const bare = await runCli(["oauth", "check", `${rs.origin}/bare`]);
    expect(bare.code).toBe(1);
    expect(bare.stdout).toContain("warning  no WWW-Authenticate header");
    expect(bare.stdout).toContain(`MISSING  no protected-resource metadata at ${rs.origin}/.well-known/oauth-protected-resource/bare`);
    expect(bare.stdout).toContain(`fix: serve JSON at ${rs.origin}/.well-known/oauth-protected-resource/bare`);
    expect(bare.stderr).toContain("the discovery chain is incomplete");
    const unregistered = await runCli(["oauth", "check", `${rs.origin}/unregistered`, "--json"]);
    expect(unregistered.code).toBe(1);
    const report = JSON.parse(unregistered.stdout) as { ok: boolean; checks: Array<{ id: string; status: string; fix?: string }> };
    expect(report.ok).toBe(false);
    expect(report.checks.find((c) => c.id === "resource-scopes")).toMatchObject({ status: "missing", fix: `register the resource on the authorization server: authsvc oauth resources create ${rs.origin}/unregistered --scopes files:write` });
  });
});
