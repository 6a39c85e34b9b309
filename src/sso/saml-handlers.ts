import { defineEventHandler, getQuery, getRouterParam, sendRedirect, setResponseHeader, setResponseStatus, type H3Event } from "h3";
import { AuthError } from "../core/errors.js";
import { readFormBody } from "../http/body.js";
import type { HttpDeps } from "../http/deps.js";
import { createSessionResponse } from "../http/session-guard.js";
import { findConnection } from "./saml-connections.js";
import { acceptSamlResponse, samlFor } from "./saml-sign-in.js";

/** A SAMLResponse carries the assertion and certificates: more than the API's JSON limit, still bounded. */
const ACS_BODY_LIMIT = 256 * 1024;

async function connection(deps: HttpDeps, event: H3Event) {
  const c = await findConnection(deps.ctx, getRouterParam(event, "id") ?? "");
  if (!c || c.kind !== "saml") throw new AuthError("NOT_FOUND", "No such SAML connection");
  return c;
}

/** Where the browser goes after signing in: a path on the website (RelayState), never another site. */
function landing(deps: HttpDeps, relayState: string | null): string {
  const site = deps.ctx.config.websiteUrl.replace(/\/+$/, "");
  return relayState && /^\/(?![/\\])[^\s]*$/.test(relayState) ? `${site}${relayState}` : `${site}/`;
}

/** The SAML routes' handlers (saml-routes.ts declares the routes); imported on the first SAML request, with @node-saml/node-saml and its XML libraries. */

/** The SP metadata an IdP is configured with. */
export const metadata = (deps: HttpDeps) => defineEventHandler(async (event) => {
  const xml = samlFor(deps.ctx.config, await connection(deps, event)).generateServiceProviderMetadata(null, null);
  setResponseHeader(event, "content-type", "application/samlmetadata+xml; charset=utf-8");
  return xml;
});

/** SP-initiated sign-in: an AuthnRequest to the IdP by HTTP-Redirect; `redirectToPath` comes back as RelayState. */
export const login = (deps: HttpDeps) => defineEventHandler(async (event) => {
  const c = await connection(deps, event);
  const back = getQuery(event).redirectToPath;
  const url = await samlFor(deps.ctx.config, c).getAuthorizeUrlAsync(typeof back === "string" ? back : "", undefined, {});
  return sendRedirect(event, url, 302);
});

/** The IdP posts the response here (HTTP-POST), after an SP-initiated request or on its own when the connection allows. */
export const acs = (deps: HttpDeps) => defineEventHandler(async (event) => {
  const c = await connection(deps, event);
  const form = await readFormBody(event, ACS_BODY_LIMIT);
  const response = form.get("SAMLResponse");
  if (!response) throw new AuthError("BAD_INPUT", "SAMLResponse is required");
  const { userId } = await acceptSamlResponse(deps.ctx, c, response);
  await createSessionResponse(event, deps, userId, "thirdparty");
  setResponseStatus(event, 303);
  setResponseHeader(event, "location", landing(deps, form.get("RelayState")));
  return { status: "OK" };
});
