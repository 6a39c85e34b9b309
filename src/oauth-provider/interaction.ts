import { sendRedirect, setResponseHeader, setResponseStatus, type H3Event } from "h3";
import type { OidcProvider } from "oidc-provider";
import type { CoreContext } from "../core/context.js";
import { AuthError } from "../core/errors.js";
import { checkMayAddWayIn } from "../core/login-policy.js";
import { websiteLink } from "../core/mail-queue.js";
import type { HttpDeps } from "../http/deps.js";
import { readHeader } from "../http/headers.js";
import { setPageHeaders } from "../http/pages/headers.js";
import { escapeHtml, renderPage } from "../http/pages/layout.js";
import { pageLocale } from "../http/pages/locale.js";
import { insertEvent } from "../store/events.js";
import type { Words } from "../words/words.js";
import { isDocumentClientId } from "./client-documents.js";
import { interactionPath } from "./provider.js";
import { findResource } from "./store.js";
import { authsvcSession, freshEnoughToSignIn, sessionProof, type SignedIn } from "./signed-in.js";

/**
 * The provider's interactions: sign-in and consent on authsvc's own pages. Sign-in is the person's
 * authsvc session (every sign-in method, the second factor when due), made or renewed within the
 * last 5 minutes (LINK_FRESHNESS_MS), within the client's `max_age`, or for this very request
 * after `prompt=login`: otherwise the browser goes to the hosted sign-in page and comes back here.
 * The ID token says when (`auth_time`: that sign-in or a later factor) and how (`amr`). Consent
 * is a new way into the account (a grant, remembered: loadExistingGrant), so it follows the
 * kernel's policy for one (core/login-policy.ts): second factor complete, a sign-in at most 5
 * minutes old, a verified address. The page shows who asks (the client's name and its redirect
 * host), for which resource, with which scopes, and warns when the redirect goes to a program on
 * this computer (loopback). POSTs come only from this page: the interaction cookie is
 * SameSite=Lax and scoped to this path, and the Origin must be ours.
 */
export async function showInteraction(event: H3Event, deps: HttpDeps, provider: OidcProvider, uid: string): Promise<unknown> {
  const { req, res } = event.node;
  const details = await loadDetails(event, deps, provider, uid);
  if (!details) return;
  const who = await authsvcSession(deps.ctx, req);
  if (!who) return sendToSignIn(event, deps, uid);
  if (details.prompt.name === "login") {
    const proof = await sessionProof(deps.ctx, who);
    const promptLogin = (details.prompt.reasons ?? []).includes("login_prompt");
    if (!proof || !(await freshEnoughToSignIn(deps.ctx, uid, proof.at, { maxAge: details.params.max_age, promptLogin }))) return sendToSignIn(event, deps, uid, { again: true });
    await provider.interactionFinished(req, res, { login: { accountId: who.personId, ts: Math.floor(proof.at / 1000), amr: proof.amr } }, { mergeWithLastSubmission: false });
    return;
  }
  if (details.session?.accountId !== who.personId) return sendToSignIn(event, deps, uid);
  const refusal = await checkConsent(event, deps, uid, who, details);
  if (refusal !== "ok") return refusal;
  const clientId = String(details.params.client_id);
  // A client metadata document that stopped being usable since the request began: the id is shown instead of its name.
  const client = await provider.Client.find(clientId).catch(() => undefined);
  const redirect = new URL(String(details.params.redirect_uri));
  const d = details.prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
  // Each resource by the name it was registered with (its host when none was given), not its URL.
  const resources = await Promise.all(Object.keys(d.missingResourceScopes ?? {}).map(async (r) => (await findResource(deps.ctx.store.db, r))?.name ?? r));
  const scopes = [...(d.missingOIDCScope ?? []), ...Object.values(d.missingResourceScopes ?? {}).flat()];
  const loopback = redirect.protocol === "http:" || !redirect.protocol.startsWith("http");
  const name = client?.clientName ?? clientId;
  const host = redirect.protocol.startsWith("http") ? redirect.host : redirect.protocol.replace(/:$/, "");
  // In the page's locale (?lang=, the cookie, Accept-Language), with its <html lang dir>.
  const w = deps.ctx.words.of(pageLocale(event, deps.ctx.config, deps.ctx.words));
  const strong = (s: string) => `<strong>${escapeHtml(s)}</strong>`;
  const main = `<h1 id="consent-title">${w.html("oauth.consent.title", { app: escapeHtml(name) })}</h1>
<p>${w.html("oauth.consent.asks", { app: strong(name), host: strong(host) })}</p>
${isDocumentClientId(clientId) ? `<p>${w.html("oauth.consent.namedBy", { host: strong(new URL(clientId).host) })}</p>` : ""}
${loopback ? `<p class="warning" role="note">${w.html("oauth.consent.loopback", { where: escapeHtml(redirect.protocol.startsWith("http") ? redirect.host : redirect.protocol) })}</p>` : ""}
${resources.length ? `<p>${w.html("oauth.consent.accessTo", { resources: resources.map(strong).join(", ") })}</p>` : ""}
${scopes.length ? `<p>${w.html("oauth.consent.asksFor")}</p><ul>${scopes.map((s) => `<li>${describeScope(s, w)}</li>`).join("")}</ul>` : ""}
<form method="post" action="${escapeHtml(interactionPath(uid))}/confirm"><button type="submit" id="allow">${w.html("oauth.consent.allow")}</button></form>
<form method="post" action="${escapeHtml(interactionPath(uid))}/abort"><button type="submit" class="secondary" id="deny">${w.html("oauth.consent.deny")}</button></form>`;
  const html = renderPage(deps.ctx.config, { title: w.t("oauth.consent.pageTitle"), assets: `${deps.ctx.config.websiteBasePath}/_assets`, main }, deps.tables.assets, w);
  setPageHeaders(event, deps.ctx.config, { lang: w.lang });
  allowFormToClient(event, redirect.href);
  return html;
}

/** What a scope lets the app do, in the page's words (HTML). */
function describeScope(scope: string, w: Words): string {
  switch (scope) {
    case "openid": return w.html("oauth.scope.openid");
    case "email": return w.html("oauth.scope.email");
    case "offline_access": return w.html("oauth.scope.offline");
    default: return w.html("oauth.scope.other", { scope: escapeHtml(scope) });
  }
}

/** POST …/confirm: the grant (existing one extended, or a new one), then back into the flow. */
export async function confirmInteraction(event: H3Event, deps: HttpDeps, provider: OidcProvider, uid: string): Promise<unknown> {
  if (!isSameOrigin(event, deps)) return refuse(event, deps, 403, "oauth.refused.notFromPage");
  const { req, res } = event.node;
  const details = await loadDetails(event, deps, provider, uid);
  if (!details) return;
  const who = await authsvcSession(deps.ctx, req);
  if (details.prompt.name !== "consent" || !who || details.session?.accountId !== who.personId) return sendToSignIn(event, deps, uid);
  const refusal = await checkConsent(event, deps, uid, who, details);
  if (refusal !== "ok") return refusal;
  const sub = who.personId;
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
  if (!isSameOrigin(event, deps)) return refuse(event, deps, 403, "oauth.refused.notFromPage");
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
    refuse(event, deps, 400, "oauth.refused.expired");
    return undefined;
  }
}

/**
 * A consent adds a way into the account: the kernel's policy decides (core/login-policy.ts). A
 * session that has not proved itself in the last 5 minutes (or whose second factor is not
 * complete) signs in again; a person without a verified address is told to verify it first.
 */
async function checkConsent(event: H3Event, deps: HttpDeps, uid: string, who: SignedIn, details: { params: Record<string, unknown> }): Promise<"ok" | unknown> {
  try {
    if ((await checkMayAddWayIn(deps.ctx.store.db, deps.ctx, who.personId, who)) === "ok") return "ok";
  } catch (err) {
    if (err instanceof AuthError && (err.code === "INVALID_CLAIM" || err.code === "UNAUTHORISED")) return sendToSignIn(event, deps, uid, { again: true });
    throw err;
  }
  return showVerifyFirst(event, deps, uid, details);
}

/** The person has no verified address: no app may be allowed yet (an address anyone could have signed up with proves nothing). */
function showVerifyFirst(event: H3Event, deps: HttpDeps, uid: string, details: { params: Record<string, unknown> }): unknown {
  const c = deps.ctx.config;
  const w = deps.ctx.words.of(pageLocale(event, c, deps.ctx.words));
  const page = `<a href="${escapeHtml(websiteLink(deps.ctx, "verify-email"))}">${w.html("oauth.verifyFirst.page")}</a>`;
  const main = `<h1 id="verify-first-title">${w.html("oauth.verifyFirst.title")}</h1>
<p>${c.hostedPages ? w.html("oauth.verifyFirst.textWithPage", { page }) : w.html("oauth.verifyFirst.text")}</p>
<p>${w.html("oauth.verifyFirst.then")}</p>
<form method="post" action="${escapeHtml(interactionPath(uid))}/abort"><button type="submit" class="secondary" id="deny">${w.html("oauth.verifyFirst.back")}</button></form>`;
  const html = renderPage(c, { title: w.t("oauth.verifyFirst.pageTitle"), assets: `${c.websiteBasePath}/_assets`, main }, deps.tables.assets, w);
  setPageHeaders(event, c, { lang: w.lang });
  allowFormToClient(event, String(details.params.redirect_uri));
  setResponseStatus(event, 403);
  return html;
}

/** The answer to this page's forms is a redirect to the client: the form may go there (CSP form-action covers redirects). */
function allowFormToClient(event: H3Event, redirectUri: string): void {
  const redirect = new URL(redirectUri);
  const target = redirect.protocol.startsWith("http") ? redirect.origin : redirect.protocol;
  const csp = String(event.node.res.getHeader("content-security-policy")).replace("form-action 'self'", `form-action 'self' ${target}`);
  setResponseHeader(event, "content-security-policy", csp);
}

/**
 * To the hosted sign-in page (on the public URL), which comes back to this interaction; `again`:
 * the session is signed in but not recently enough, so the page asks for a new sign-in rather than
 * resuming it.
 */
function sendToSignIn(event: H3Event, deps: HttpDeps, uid: string, opts: { again?: boolean } = {}) {
  const c = deps.ctx.config;
  if (!c.hostedPages) return refuse(event, deps, 401, opts.again ? "oauth.refused.signInAgain" : "oauth.refused.signInFirst");
  return sendRedirect(event, `${websiteLink(deps.ctx, "")}?redirectToPath=${encodeURIComponent(interactionPath(uid))}${opts.again ? "&signInAgain=1" : ""}`, 303);
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

/** A plain page that says why the interaction stops (`id`: the sentence's), in the page's locale. */
function refuse(event: H3Event, deps: HttpDeps, status: number, id: string) {
  const w = deps.ctx.words.of(pageLocale(event, deps.ctx.config, deps.ctx.words));
  setResponseStatus(event, status);
  setPageHeaders(event, { pagesLogoUrl: undefined } as never, { lang: w.lang });
  event.node.res.end(`<!doctype html><html lang="${w.lang}" dir="${w.dir}"><head><meta charset="utf-8"><title>${w.html("oauth.refused.pageTitle")}</title></head><body><main><h1>${w.html("oauth.refused.title")}</h1><p>${w.html(id)}</p></main></body></html>`);
  return undefined;
}

async function recordEvent(ctx: CoreContext, type: string, userId: string, data: Record<string, unknown>): Promise<void> {
  await ctx.store.writeTx((tx) => insertEvent(tx, { at: ctx.clock.now(), type, userId, data }));
}
