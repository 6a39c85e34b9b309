// An MCP server whose tools only authsvc's users reach, through the clients they allow (Claude,
// VS Code, Cursor, the MCP Inspector...). Node 20.19+, the official MCP TypeScript SDK and jose:
//   npm install @modelcontextprotocol/sdk jose zod
//   AUTHSVC_URL=https://auth.example.com MCP_URL=https://mcp.example.com/mcp node server.mjs
// Register it with authsvc once: authsvc oauth resources create https://mcp.example.com/mcp --scopes mcp:tools
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { z } from "zod";

/** The scope a token must carry to call the tools (registered with the resource in authsvc). */
export const SCOPE = "mcp:tools";

/**
 * Starts the server. `authsvcUrl`: authsvc's public URL, the issuer of its tokens. `mcpUrl`: this
 * server's MCP endpoint as clients reach it, the resource tokens must be issued for (their `aud`).
 */
export async function startMcpServer({ authsvcUrl, mcpUrl, port = 0, host = "127.0.0.1" }) {
  const resource = new URL(mcpUrl);
  // RFC 9728: the metadata lives at /.well-known/oauth-protected-resource followed by the resource's path.
  const metadataPath = `/.well-known/oauth-protected-resource${resource.pathname === "/" ? "" : resource.pathname}`;
  const metadataUrl = `${resource.origin}${metadataPath}`;
  const metadata = {
    resource: resource.href,
    authorization_servers: [authsvcUrl],
    scopes_supported: [SCOPE],
    bearer_methods_supported: ["header"],
    resource_name: "Example MCP server",
  };
  const verify = tokenVerifier(authsvcUrl, resource.href);

  const server = createServer(async (req, res) => {
    try {
      const path = new URL(req.url, resource.origin).pathname;
      if (req.method === "GET" && (path === metadataPath || path === "/.well-known/oauth-protected-resource")) {
        return send(res, 200, metadata, { "access-control-allow-origin": "*" });
      }
      if (path !== resource.pathname) return send(res, 404, { error: "not found" });
      // No token, or one that fails a check: 401 with where to find out how to get one.
      const auth = await verify(req.headers.authorization);
      if (auth.error) {
        const challenge = `Bearer resource_metadata="${metadataUrl}", scope="${SCOPE}"${auth.error === "no token" ? "" : `, error="${auth.code}", error_description="${auth.error}"`}`;
        return send(res, auth.code === "insufficient_scope" ? 403 : 401, { error: auth.code ?? "invalid_token", error_description: auth.error }, { "www-authenticate": challenge });
      }
      req.auth = auth; // the SDK hands it to the tools as extra.authInfo
      // Stateless: one MCP server and transport per request, no session to keep between them.
      const mcp = buildMcpServer();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on("close", () => { transport.close(); mcp.close(); });
      await mcp.connect(transport);
      await transport.handleRequest(req, res);
    } catch (err) {
      if (!res.headersSent) send(res, 500, { error: "server_error" });
      console.error(err);
    }
  });
  await new Promise((resolve) => server.listen(port, host, resolve));
  return { server, port: server.address().port, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }) };
}

/** The tools: here one, answering with the name of whoever's token called it. */
function buildMcpServer() {
  const mcp = new McpServer({ name: "example-mcp-server", version: "1.0.0" });
  mcp.registerTool("greet", {
    title: "Greet",
    description: "Says hello, naming the authsvc user the token was issued to",
    inputSchema: { name: z.string().max(100).describe("who to greet") },
  }, async ({ name }, extra) => ({
    content: [{ type: "text", text: `Hello, ${name}! (called by user ${extra.authInfo?.extra?.userId} through client ${extra.authInfo?.clientId})` }],
  }));
  return mcp;
}

/**
 * Checks an `Authorization: Bearer` header: a JWT signed by authsvc's keys (its JWKS, found in its
 * metadata and cached), issued by authsvc, for this resource (`aud`), not expired, with the scope.
 * Returns the SDK's AuthInfo, or { error, code }.
 */
function tokenVerifier(issuer, audience) {
  let jwks;
  const keys = async () => {
    if (jwks) return jwks;
    const res = await fetch(new URL("/.well-known/oauth-authorization-server", issuer));
    if (!res.ok) throw new Error(`authsvc metadata answered ${res.status}`);
    return (jwks = createRemoteJWKSet(new URL((await res.json()).jwks_uri)));
  };
  return async (header) => {
    const m = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/.exec(header ?? "");
    if (!m) return { error: "no token" };
    const jwks = await keys(); // authsvc unreachable: a 500 (the outer catch), not a refused token
    let payload;
    try {
      ({ payload } = await jwtVerify(m[1], jwks, {
        issuer, audience, algorithms: ["RS256"], typ: "at+jwt", clockTolerance: 5, requiredClaims: ["sub", "exp", "client_id"],
      }));
    } catch (err) {
      return { error: `the token was refused (${err.code ?? "not a JWT"})`, code: "invalid_token" };
    }
    const scopes = typeof payload.scope === "string" ? payload.scope.split(" ") : [];
    if (!scopes.includes(SCOPE)) return { error: `the token lacks the scope ${SCOPE}`, code: "insufficient_scope" };
    return { token: m[1], clientId: payload.client_id, scopes, expiresAt: payload.exp, resource: new URL(audience), extra: { userId: payload.sub } };
  };
}

function send(res, status, body, headers = {}) {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...headers });
  res.end(JSON.stringify(body));
}

// Run directly: node server.mjs (AUTHSVC_URL, MCP_URL, PORT).
if (import.meta.url === `file://${process.argv[1]}`) {
  const mcpUrl = process.env.MCP_URL ?? "http://127.0.0.1:3000/mcp";
  const { port } = await startMcpServer({ authsvcUrl: process.env.AUTHSVC_URL ?? "http://localhost:3567", mcpUrl, port: Number(process.env.PORT || new URL(mcpUrl).port || 3000) });
  console.log(`MCP server on port ${port}, endpoint ${mcpUrl}`);
}
