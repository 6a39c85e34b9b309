import { sendRedirect, setResponseHeader, setResponseStatus, type H3Event } from "h3";
import type { OidcProvider } from "oidc-provider";
import type { CoreContext } from "../core/context.js";
import type { HttpDeps } from "../http/deps.js";
import { readHeader } from "../http/headers.js";
import { setPageHeaders } from "../http/pages/headers.js";
import { escapeHtml, renderPage } from "../http/pages/layout.js";
import { insertEvent } from "../store/events.js";
import { isDocumentClientId } from "./client-documents.js";
import { authsvcSubject, interactionPath } from "./provider.js";

/**
 * The provider's interactions: sign-in and consent on authsvc's own pages. Sign-in is the person's
 * authsvc session (every sign-in method, the second factor when due): with none, the browser goes
 * to the hosted sign-in page and comes back here. Consent shows who asks (the client's name and
 * its redirect host), for which resource, with which scopes, and warns when the redirect goes to a
 * program on this computer (loopback). A consent is a grant, remembered (loadExistingGrant).
 * POSTs come only from this page: the interaction cookie is SameSite=Lax and scoped to this path,
 * and the Origin must be ours.
 */
export async function showInteraction(event: H3Event, deps: HttpDeps, provider: OidcProvider, uid: string): Promise<unknown> {
  const { req, res } = event.node;
  const details = await loadDetails(event, deps, provider, uid);
  if (!details) return;
  const sub = await authsvcSubject(deps.ctx, req);
  if (!sub || (details.prompt.name !== "login" && details.session?.accountId !== sub)) return sendToSignIn(event, deps, uid);
  if (details.prompt.name === "login") {
    await provider.interactionFinished(req, res, { login: { accountId: sub } }, { mergeWithLastSubmission: false });
    return;
  }
  const clientId = String(details.params.client_id);
  // A client metadata document that stopped being usable since the request began: the id is shown instead of its name.
  const client = await provider.Client.find(clientId).catch(() => undefined);
  const redirect = new URL(String(details.params.redirect_uri));
  const d = details.prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
  const resources = Object.keys(d.missingResourceScopes ?? {});
  const scopes = [...(d.missingOIDCScope ?? []), ...Object.values(d.missingResourceScopes ?? {}).flat()];
  const loopback = redirect.protocol === "http:" || !redirect.protocol.startsWith("http");
  const name = client?.clientName ?? clientId;
  const host = redirect.protocol.startsWith("http") ? redirect.host : redirect.protocol.replace(/:$/, "");
  const main = `<h1 id="consent-title">Allow ${escapeHtml(name)}?</h1>
<p><strong>${escapeHtml(name)}</strong> (returning to <strong>${escapeHtml(host)}</strong>) asks to use your account.</p>
${isDocumentClientId(clientId) ? `<p>Its name is given by <strong>${escapeHtml(new URL(clientId).host)}</strong>, which describes this app.</p>` : ""}
${loopback ? `<p class="warning" role="note">This app returns to a program on this computer (${escapeHtml(redirect.protocol.startsWith("http") ? redirect.host : redirect.protocol)}). Allow it only if you started it yourself just now.</p>` : ""}
${resources.length ? `<p>Access to: ${resources.map((r) => `<strong>${escapeHtml(r)}</strong>`).join(", ")}</p>` : ""}
${scopes.length ? `<p>It asks for:</p><ul>${scopes.map((s) => `<li>${escapeHtml(describeScope(s))}</li>`).join("")}</ul>` : ""}
<form method="post" action="${escapeHtml(interactionPath(uid))}/confirm"><button type="submit" id="allow">Allow</button></form>
<form method="post" action="${escapeHtml(interactionPath(uid))}/abort"><button type="submit" class="secondary" id="deny">Deny</button></form>`;
  const html = renderPage(deps.ctx.config, { title: "Allow access", assets: `${deps.ctx.config.websiteBasePath}/_assets`, main }, deps.tables.assets);
  setPageHeaders(event, deps.ctx.config);
  // The answer to Allow is a redirect to the client: the form may go there (CSP form-action covers redirects).
  const target = redirect.protocol.startsWith("http") ? redirect.origin : redirect.protocol;
  const csp = String(res.getHeader("content-security-policy")).replace("form-action 'self'", `form-action 'self' ${target}`);
  setResponseHeader(event, "content-security-policy", csp);
  return html;
}

function describeScope(scope: string): string {
  switch (scope) {
    case "openid": return "Know who you are (your account id)";
    case "email": return "Your email address";
    case "offline_access": return "Stay connected when you are away (a refresh token)";
    default: return `Scope: ${scope}`;
  }
}

/** POST …/confirm: the grant (existing one extended, or a new one), then back into the flow. */
export async function confirmInteraction(event: H3Event, deps: HttpDeps, provider: OidcProvider, uid: string): Promise<unknown> {
  if (!isSameOrigin(event, deps)) return refuse(event, 403, "This request did not come from the consent page.");
  const { req, res } = event.node;
  const details = await loadDetails(event, deps, provider, uid);
  if (!details) return;
  const sub = await authsvcSubject(deps.ctx, req);
  if (details.prompt.name !== "consent" || !sub || details.session?.accountId !== sub) return sendToSignIn(event, deps, uid);
  const clientId = String(details.params.client_id);
  const grant = (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ?? new provider.Grant({ accountId: sub, clientId });
  const d = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
  if (d.missingOIDCScope?.length) grant.addOIDCScope(d.missingOIDCScope.join(" "));
  if (d.missingOIDCClaims?.length) grant.addOIDCClaims(d.missingOIDCClaims);
  for (const [resource, scopes] of Object.entries(d.missingResourceScopes ?? {})) grant.addResourceScope(resource, scopes.join(" "));
  const grantId = await grant.save();
  await recordEvent(deps.ctx, "oauth.grant_given", sub, { clientId, grantId });
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

/** POST …/abort: the person said no; the client gets access_denied (with iss, like every answer). */
export async function abortInteraction(event: H3Event, deps: HttpDeps, provider: OidcProvider, uid: string): Promise<unknown> {
  if (!isSameOrigin(event, deps)) return refuse(event, 403, "This request did not come from the consent page.");
  const details = await loadDetails(event, deps, provider, uid);
  if (!details) return;
  await provider.interactionFinished(event.node.req, event.node.res, { error: "access_denied", error_description: "The person declined." }, { mergeWithLastSubmission: false });
}

async function loadDetails(event: H3Event, deps: HttpDeps, provider: OidcProvider, uid: string) {
  try {
    const details = await provider.interactionDetails(event.node.req, event.node.res);
    if (details.uid !== uid) throw new Error("uid mismatch");
    return details;
  } catch {
    refuse(event, 400, "This sign-in request has expired or was opened in another browser. Go back to the app and start again.");
    return undefined;
  }
}

function sendToSignIn(event: H3Event, deps: HttpDeps, uid: string) {
  const c = deps.ctx.config;
  if (!c.hostedPages) return refuse(event, 401, "Sign in first, then try again from the app.");
  return sendRedirect(event, `${c.websiteBasePath}?redirectToPath=${encodeURIComponent(interactionPath(uid))}`, 303);
}

/**
 * The form came from our page: Sec-Fetch-Site (set by the browser, no page can forge it) decides
 * when present; a browser sends `Origin: null` with our pages' forms (Referrer-Policy: no-referrer).
 * Without it, the Origin must be this server's.
 */
function isSameOrigin(event: H3Event, deps: HttpDeps): boolean {
  const site = readHeader(event, "sec-fetch-site");
  if (site !== undefined) return site === "same-origin";
  const origin = readHeader(event, "origin");
  return origin === new URL(deps.ctx.config.publicUrl).origin;
}

function refuse(event: H3Event, status: number, message: string) {
  setResponseStatus(event, status);
  setPageHeaders(event, { pagesLogoUrl: undefined } as never);
  event.node.res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in</title></head><body><main><h1>This cannot go on</h1><p>${escapeHtml(message)}</p></main></body></html>`);
  return undefined;
}

async function recordEvent(ctx: CoreContext, type: string, userId: string, data: Record<string, unknown>): Promise<void> {
  await ctx.store.writeTx((tx) => insertEvent(tx, { at: ctx.clock.now(), type, userId, data }));
}
