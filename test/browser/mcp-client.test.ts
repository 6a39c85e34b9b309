import { createServer, type Server } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError, type OAuthClientProvider, type OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { createClient, createResource } from "../../src/oauth-provider/clients.js";
import { backends } from "../helpers/backends.js";
import { closedPort } from "../helpers/oidc-provider.js";
import { fill, openTab, usePagesSuite, waitVisible } from "./harness.js";
// @ts-expect-error: a plain .mjs example without types, as an app would copy it
import { startMcpServer } from "../../examples/mcp-server/server.mjs";

/**
 * An MCP client (the official TypeScript SDK's client auth, as Claude, VS Code or the Inspector run
 * it) against the example MCP server (examples/mcp-server) protected by authsvc: 401 → protected
 * resource metadata → authsvc's metadata → dynamic registration → the authorization URL in Chromium,
 * sign-in and consent on the hosted pages → the callback → tokens → a tool call → a refresh.
 */
describe.each(backends)("an MCP client signs in through authsvc ($name) to the example MCP server (Chromium)", (backend) => {
  const suite = usePagesSuite({ oauthDynamicRegistration: true }, { backend });
  let mcp: { port: number; close(): Promise<void> };
  let mcpUrl = "";
  let callback: { server: Server; url: string; codes: Map<string, string> };
  let userId = "";

  beforeAll(async () => {
    const port = await closedPort();
    mcpUrl = `http://127.0.0.1:${port}/mcp`;
    await createResource(suite.s.app.ctx, { resource: mcpUrl, name: "Example MCP", scopes: ["mcp:tools"] }, "test");
    mcp = await startMcpServer({ authsvcUrl: suite.s.url, mcpUrl, port });
    const up = await signUpWithPassword(suite.s.app.ctx, { email: "mcp@example.com", password: "mcp client pass 1", verified: true });
    if (up.status !== "OK") throw new Error(up.status);
    userId = up.user.id;
    // The client's loopback redirect (RFC 8252): a program on this computer takes the code.
    const codes = new Map<string, string>();
    const server = createServer((req, res) => {
      const u = new URL(req.url!, "http://127.0.0.1");
      if (u.pathname === "/callback") codes.set(u.searchParams.get("state") ?? "", u.searchParams.get("code") ?? `error:${u.searchParams.get("error")}`);
      res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>Done</title><p>You can close this window.</p>");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    callback = { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/callback`, codes };
  });
  afterAll(async () => {
    await mcp?.close();
    callback?.server.closeAllConnections();
    await new Promise((r) => callback?.server.close(r));
  });

  it("registers, signs the person in and asks their consent in the browser, calls the tool, and refreshes its token", async () => {
    const bare = await fetch(mcpUrl, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
    expect(bare.status).toBe(401);
    const metadataUrl = `${new URL(mcpUrl).origin}/.well-known/oauth-protected-resource/mcp`;
    expect(bare.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${metadataUrl}", scope="mcp:tools"`);
    expect(await (await fetch(metadataUrl)).json()).toMatchObject({ resource: mcpUrl, authorization_servers: [suite.s.url], scopes_supported: ["mcp:tools"] });

    // A token authsvc signed for another resource, and one for this server without the scope: refused.
    const other = "https://other.example.com/api";
    await createResource(suite.s.app.ctx, { resource: other, scopes: ["mcp:tools"] }, "test");
    const machine = await createClient(suite.s.app.ctx, { name: "Job", type: "confidential", grantTypes: ["client_credentials"], resources: [mcpUrl, other] }, "test");
    const token = async (resource: string, scope: string) => {
      const res = await fetch(`${suite.s.url}/oauth/token`, { method: "POST", headers: { authorization: `Basic ${Buffer.from(`${machine.clientId}:${machine.clientSecret}`).toString("base64")}`, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ grant_type: "client_credentials", resource, scope }) });
      return ((await res.json()) as { access_token: string }).access_token;
    };
    const call = (accessToken: string) => fetch(mcpUrl, { method: "POST", headers: { authorization: `Bearer ${accessToken}`, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
    const wrongAudience = await call(await token(other, "mcp:tools"));
    expect(wrongAudience.status).toBe(401);
    expect(wrongAudience.headers.get("www-authenticate")).toContain('error="invalid_token"');
    const noScope = await call(await token(mcpUrl, ""));
    expect(noScope.status).toBe(403);
    expect(noScope.headers.get("www-authenticate")).toContain('error="insufficient_scope"');

    const provider = new MemoryProvider(callback.url);
    const client = new Client({ name: "test-mcp-client", version: "1.0.0" });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }))).rejects.toBeInstanceOf(UnauthorizedError);
    // The SDK found authsvc through the MCP server's metadata and registered itself there.
    expect(provider.discovered).toMatchObject({ authorizationServerUrl: expect.stringContaining(suite.s.url), resourceMetadata: { resource: mcpUrl } });
    expect(provider.client?.client_id).toBeTruthy();
    const authorization = provider.authorizationUrl!;
    expect(authorization.origin).toBe(suite.s.url);
    expect(authorization.searchParams.get("resource")).toBe(mcpUrl);
    expect(authorization.searchParams.get("code_challenge_method")).toBe("S256");

    // The person: not signed in, so the hosted sign-in first, then the consent page.
    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url);
    await page.goto(authorization.toString());
    await waitVisible(page, "#form");
    await fill(page, "#email", "mcp@example.com");
    await fill(page, "#password", "mcp client pass 1");
    await page.click("#submit");
    await waitVisible(page, "#allow");
    const consent = await page.$eval("main", (el) => el.textContent ?? "");
    expect(consent).toContain("Allow MCP test client?");
    expect(consent).toContain("Access to: Example MCP"); // the resource's registered name, not its URL
    expect(consent).toMatch(/a program on this computer/);
    await Promise.all([page.waitForNavigation(), page.click("#allow")]);
    expect(page.url()).toMatch(new RegExp(`^${callback.url}\\?`));
    const code = callback.codes.get(provider.stateValue)!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{20,}$/);

    // Back in the client: the code for tokens, then the tool.
    const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
    await transport.finishAuth(code);
    const first = provider.saved!;
    expect(first.refresh_token).toBeTruthy();
    const connected = new Client({ name: "test-mcp-client", version: "1.0.0" });
    await connected.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
    expect((await connected.listTools()).tools.map((t) => t.name)).toEqual(["greet"]);
    const answer = await connected.callTool({ name: "greet", arguments: { name: "Ada" } });
    expect(answer.content).toEqual([{ type: "text", text: `Hello, Ada! (called by user ${userId} through client ${provider.client!.client_id})` }]);

    // The access token no longer passes (here: spoilt): the MCP server answers 401, the SDK
    // refreshes by itself (a rotated refresh token), and the call goes through.
    provider.saved = { ...first, access_token: `${first.access_token.slice(0, -4)}AAAA` };
    const again = await connected.callTool({ name: "greet", arguments: { name: "Grace" } });
    expect(again.content).toEqual([{ type: "text", text: expect.stringContaining("Hello, Grace!") }]);
    expect(provider.saved.access_token).not.toBe(first.access_token);
    expect(provider.saved.refresh_token).toBeTruthy();
    expect(provider.saved.refresh_token).not.toBe(first.refresh_token);
    await connected.close();
    await client.close();
    expect(page.problems).toEqual([]);
  });
});

/** The client's storage, as an app keeps it: registration, PKCE verifier, tokens; the browser step is the test's. */
class MemoryProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  discovered?: OAuthDiscoveryState;
  readonly stateValue = `st-${Math.random().toString(36).slice(2)}`;
  constructor(readonly redirectUrl: string) {}
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: "MCP test client", redirect_uris: [this.redirectUrl], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none", application_type: "native" } as OAuthClientMetadata;
  }
  state() { return this.stateValue; }
  clientInformation() { return this.client; }
  saveClientInformation(info: OAuthClientInformationMixed) { this.client = info; }
  tokens() { return this.saved; }
  saveTokens(tokens: OAuthTokens) { this.saved = tokens; }
  redirectToAuthorization(url: URL) { this.authorizationUrl = url; }
  saveCodeVerifier(v: string) { this.verifier = v; }
  codeVerifier() { return this.verifier; }
  saveDiscoveryState(state: OAuthDiscoveryState) { this.discovered = state; }
  discoveryState() { return this.discovered; }
}
