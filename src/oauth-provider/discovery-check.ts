/**
 * `authsvc oauth check <url>`: the discovery chain an MCP client walks from a server URL, step by
 * step, with what is present, what is missing and how to fix it (most failures people report are
 * discovery mistakes). The chain: the URL answers 401 with `WWW-Authenticate: Bearer
 * resource_metadata=…` → the protected-resource metadata (RFC 9728) → its authorization server →
 * that server's metadata (RFC 8414 / OpenID, at every well-known path a client may try) → PKCE S256,
 * a way to get a client_id, the iss parameter, the resource's scopes, the JWKS.
 */
export type CheckStatus = "ok" | "missing" | "warning";
export interface CheckResult { id: string; status: CheckStatus; detail: string; fix?: string }
export interface CheckReport { ok: boolean; url: string; checks: CheckResult[] }

const TIMEOUT_MS = 10_000;

async function get(url: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; json?: Record<string, unknown> } | { error: string }> {
  try {
    const res = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(TIMEOUT_MS), ...init });
    const text = await res.text();
    let json: Record<string, unknown> | undefined;
    try { const v = JSON.parse(text); if (v && typeof v === "object" && !Array.isArray(v)) json = v; } catch { /* not JSON */ }
    return { status: res.status, headers: res.headers, json };
  } catch (err) {
    return { error: String((err as Error & { cause?: { code?: string } }).cause?.code ?? (err as Error).message) };
  }
}

/** The resource_metadata parameter of a Bearer challenge, if any. */
export function resourceMetadataParam(header: string | null): string | undefined {
  if (!header || !/^\s*bearer\b/i.test(header)) return undefined;
  return /resource_metadata\s*=\s*"([^"]*)"/i.exec(header)?.[1] ?? /resource_metadata\s*=\s*([^\s,]+)/i.exec(header)?.[1];
}

/** The well-known URLs of RFC 9728 §3 (path-inserted, then the root) for a resource URL. */
function protectedResourceUrls(resource: URL): string[] {
  const path = resource.pathname === "/" ? "" : resource.pathname.replace(/\/$/, "");
  return [...new Set([`${resource.origin}/.well-known/oauth-protected-resource${path}`, `${resource.origin}/.well-known/oauth-protected-resource`])];
}

/** Every metadata URL a client may try for an issuer (RFC 8414 §3, OpenID Discovery §4, and the MCP spec's order). */
export function authorizationServerMetadataUrls(issuer: URL): string[] {
  const path = issuer.pathname === "/" ? "" : issuer.pathname.replace(/\/$/, "");
  return path
    ? [`${issuer.origin}/.well-known/oauth-authorization-server${path}`, `${issuer.origin}/.well-known/openid-configuration${path}`, `${issuer.origin}${path}/.well-known/openid-configuration`]
    : [`${issuer.origin}/.well-known/oauth-authorization-server`, `${issuer.origin}/.well-known/openid-configuration`];
}

/** Walks the chain from the URL; `ok` is false when something a client needs is missing. */
export async function checkDiscovery(target: string): Promise<CheckReport> {
  const checks: CheckResult[] = [];
  const add = (id: string, status: CheckStatus, detail: string, fix?: string) => { checks.push({ id, status, detail, ...(fix ? { fix } : {}) }); };
  const done = () => ({ ok: !checks.some((c) => c.status === "missing"), url: target, checks });
  let url: URL;
  try { url = new URL(target); } catch { add("url", "missing", `${target} is not an absolute URL`, "give the MCP server's URL, e.g. https://mcp.example.com/mcp"); return done(); }

  // 1. The server, asked as a client first asks it: no token.
  const first = await get(url.href, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "authsvc oauth check", version: "1" } } }) });
  let metadataUrl: string | undefined;
  if ("error" in first) {
    add("unauthenticated-401", "missing", `${url.href} could not be reached (${first.error})`, "check the URL, DNS and TLS; the server must be reachable by clients");
    return done();
  }
  const challenge = first.headers.get("www-authenticate");
  if (first.status !== 401) add("unauthenticated-401", "missing", `a request without a token answered ${first.status}, not 401`, "answer requests without a valid access token with 401 and WWW-Authenticate: Bearer resource_metadata=\"<url of your protected-resource metadata>\"");
  else add("unauthenticated-401", "ok", "a request without a token answers 401");
  metadataUrl = resourceMetadataParam(challenge);
  if (metadataUrl) add("www-authenticate", "ok", `WWW-Authenticate names resource_metadata=${metadataUrl}`);
  else add("www-authenticate", "warning", challenge ? `WWW-Authenticate (${challenge}) has no resource_metadata parameter` : "no WWW-Authenticate header", "add WWW-Authenticate: Bearer resource_metadata=\"…/.well-known/oauth-protected-resource…\" to the 401; clients otherwise guess the well-known URL");

  // 2. The protected-resource metadata (RFC 9728): where the header says, else the well-known paths.
  let prm: Record<string, unknown> | undefined;
  for (const candidate of metadataUrl ? [metadataUrl] : protectedResourceUrls(url)) {
    const r = await get(candidate, { headers: { accept: "application/json" } });
    if (!("error" in r) && r.status === 200 && r.json) { prm = r.json; metadataUrl = candidate; break; }
  }
  if (!prm) {
    add("protected-resource-metadata", "missing", `no protected-resource metadata at ${metadataUrl ?? protectedResourceUrls(url).join(" or ")}`, `serve JSON at ${protectedResourceUrls(url)[0]}: {"resource": "${url.href}", "authorization_servers": ["https://auth.example.com"], "scopes_supported": [...]}`);
    return done();
  }
  add("protected-resource-metadata", "ok", `protected-resource metadata at ${metadataUrl}`);
  if (prm.resource === url.href) add("resource", "ok", `its resource is ${url.href}`);
  else add("resource", "missing", `its resource is ${JSON.stringify(prm.resource)}, not ${url.href}`, `set "resource" to exactly ${url.href}: clients compare it with the URL they were given, and send it as the token's resource`);
  const servers = Array.isArray(prm.authorization_servers) ? prm.authorization_servers.filter((s): s is string => typeof s === "string") : [];
  if (servers.length === 0) {
    add("authorization-servers", "missing", "it names no authorization_servers", "add \"authorization_servers\": [\"<your authsvc public URL>\"]");
    return done();
  }
  add("authorization-servers", "ok", `authorization server ${servers[0]}`);

  // 3. The authorization server's metadata, at every path a client may try.
  let issuer: URL;
  try { issuer = new URL(servers[0]); } catch { add("authorization-server-metadata", "missing", `${servers[0]} is not a URL`, "list the issuer URL of the authorization server"); return done(); }
  let as: Record<string, unknown> | undefined;
  for (const candidate of authorizationServerMetadataUrls(issuer)) {
    const r = await get(candidate, { headers: { accept: "application/json" } });
    const found = !("error" in r) && r.status === 200 && r.json;
    add(`metadata ${candidate}`, found ? "ok" : "warning", found ? `metadata at ${candidate}` : `nothing at ${candidate}`, found ? undefined : "some clients look here first; serve the same metadata at every well-known path");
    if (found && !as) as = r.json;
  }
  if (!as) {
    add("authorization-server-metadata", "missing", `${issuer.href} publishes no authorization server metadata`, "is it the right URL? authsvc serves it at /.well-known/oauth-authorization-server of its public URL (--public-url)");
    return done();
  }
  const issuerValue = String(as.issuer ?? "");
  if (issuerValue === servers[0] || issuerValue === servers[0].replace(/\/$/, "")) add("issuer", "ok", `issuer ${issuerValue}`);
  else add("issuer", "missing", `the metadata says issuer ${issuerValue || "(none)"}, the resource names ${servers[0]}`, "list exactly the issuer in authorization_servers (for authsvc: its --public-url)");
  for (const ep of ["authorization_endpoint", "token_endpoint"]) {
    if (typeof as[ep] === "string") add(ep, "ok", `${ep} ${as[ep]}`);
    else add(ep, "missing", `no ${ep}`, "the authorization server must publish it");
  }
  const pkce = Array.isArray(as.code_challenge_methods_supported) ? as.code_challenge_methods_supported : [];
  if (pkce.includes("S256")) add("pkce-s256", "ok", "PKCE S256 supported");
  else add("pkce-s256", "missing", "code_challenge_methods_supported does not list S256", "MCP clients refuse a server that does not advertise S256; publish code_challenge_methods_supported: [\"S256\"]");
  const reg = typeof as.registration_endpoint === "string", cimd = as.client_id_metadata_document_supported === true;
  if (reg || cimd) add("client-id", "ok", [cimd ? "client ID metadata documents" : "", reg ? `dynamic registration at ${as.registration_endpoint}` : ""].filter(Boolean).join(" and ") + " supported");
  else add("client-id", "missing", "neither client ID metadata documents nor dynamic registration: a client needs a client_id made for it", "turn on --oauth-client-metadata-documents (on by default) or --oauth-dynamic-registration, or give each client a client_id (authsvc oauth clients create)");
  if (as.authorization_response_iss_parameter_supported === true) add("iss-parameter", "ok", "iss on authorization responses (RFC 9207)");
  else add("iss-parameter", "warning", "authorization_response_iss_parameter_supported is not true", "clients cannot detect mix-up attacks; publish it and send iss");

  // 4. The resource's scopes, as the authorization server knows them (authsvc lists each registered resource's).
  const asScopes = Array.isArray(as.scopes_supported) ? as.scopes_supported : undefined;
  const rsScopes = Array.isArray(prm.scopes_supported) ? prm.scopes_supported.filter((s): s is string => typeof s === "string") : [];
  const unknown = asScopes ? rsScopes.filter((s) => !asScopes.includes(s)) : [];
  if (rsScopes.length === 0) add("resource-scopes", "warning", "the protected-resource metadata lists no scopes_supported", "list the scopes your server understands, so clients ask for them");
  else if (unknown.length) add("resource-scopes", "missing", `the authorization server does not know the scopes ${unknown.join(", ")}`, `register the resource on the authorization server: authsvc oauth resources create ${url.href} --scopes ${rsScopes.join(",")}`);
  else add("resource-scopes", "ok", `scopes ${rsScopes.join(", ")} known to the authorization server`);

  // 5. The keys a resource server verifies tokens with.
  if (typeof as.jwks_uri !== "string") add("jwks", "missing", "no jwks_uri", "publish the JWKS so resource servers can verify access tokens");
  else {
    const r = await get(as.jwks_uri);
    const keys = !("error" in r) && r.json && Array.isArray(r.json.keys) ? r.json.keys.length : 0;
    if (keys > 0) add("jwks", "ok", `JWKS at ${as.jwks_uri} (${keys} key${keys === 1 ? "" : "s"})`);
    else add("jwks", "missing", `the JWKS at ${as.jwks_uri} ${"error" in r ? `could not be fetched (${r.error})` : `answered ${r.status} without keys`}`, "make the jwks_uri reachable by resource servers");
  }
  return done();
}
