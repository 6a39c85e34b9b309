import { defineEventHandler, getQuery, setResponseHeader } from "h3";
import { badInput } from "../../../core/errors.js";
import { getAuthorisationUrl } from "../authorisation-url.js";
import type { HttpDeps } from "../../../http/deps.js";

/** GET /authorisationurl?thirdPartyId=&redirectURIOnProviderDashboard=[&clientType=] (FDI notes §10.1). */
export const authorisationUrl = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const q = getQuery(event);
    const thirdPartyId = single(q.thirdPartyId);
    if (!thirdPartyId) throw badInput("Please provide the thirdPartyId as a GET param");
    const redirectURIOnProviderDashboard = single(q.redirectURIOnProviderDashboard);
    if (!redirectURIOnProviderDashboard) throw badInput("Please provide the redirectURIOnProviderDashboard as a GET param");
    if (!isAbsoluteUrl(redirectURIOnProviderDashboard)) throw badInput("redirectURIOnProviderDashboard must be an absolute URL");
    const result = await getAuthorisationUrl(deps.ctx, { thirdPartyId, redirectURIOnProviderDashboard, clientType: single(q.clientType) });
    setResponseHeader(event, "cache-control", "no-store"); // carries the PKCE verifier
    return { status: "OK", ...result };
  });

/** A query parameter given once; repeated parameters count as missing rather than guessed at. */
function single(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

function isAbsoluteUrl(s: string): boolean {
  try { new URL(s); return s.length <= 2048; } catch { return false; }
}
