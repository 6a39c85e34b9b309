import { defineEventHandler } from "h3";
import { badInput } from "../../../core/errors.js";
import { signInUp, type SignInUpInput } from "../sign-in-up.js";
import { toUserJson } from "../../../core/users.js";
import { readJsonBody } from "../../../http/body.js";
import type { HttpDeps } from "../../../http/deps.js";
import { createSessionResponse } from "../../../http/session-guard.js";
import { readLinkingSessionUser } from "../../../http/linking-session.js";
import { requestLocale } from "../../../http/pages/locale.js";

/**
 * POST /signinup (PROTOCOL.md §9, FDI notes §10.2): exchange a code or check tokens, sign the user
 * in or up, start a session. Provider failures are 400/502 naming the provider (core decides).
 * A new person's locale (the hosted pages' `locale` key, else the request's) is stored for their mail.
 */
export const signInUpHandler = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    const input = parseSignInUpBody(body);
    input.session = await readLinkingSessionUser(event, deps, body);
    // The hosted callback page sends the sign-in page's locale (an extra key the SDKs never send);
    // otherwise the request's (the pages' cookie, Accept-Language). Any other value is not one we offer: ignored.
    const offered = deps.ctx.words.offered as readonly string[];
    input.locale = typeof body.locale === "string" && offered.includes(body.locale) ? body.locale : requestLocale(event, deps.ctx.words);
    const result = await signInUp(deps.ctx, input).catch((err) => {
      deps.ctx.metrics.signIn("thirdparty", "error");
      throw err;
    });
    deps.ctx.metrics.signIn("thirdparty", result.status === "OK" ? "success" : result.status === "SIGN_IN_UP_NOT_ALLOWED" ? "not_allowed" : "no_email");
    // NO_EMAIL_GIVEN_BY_PROVIDER (and every thrown error) leaves without a session.
    if (result.status !== "OK") return result;
    // Same transport as sign-up/sign-in: mode from st-auth-mode / <brand>-auth-mode, front-token,
    // Cache-Control no-store and the expose list all come from the one session helper.
    const tokenFields = await createSessionResponse(event, deps, result.recipeUserId, "thirdparty");
    return { status: "OK", createdNewRecipeUser: result.createdNewRecipeUser, user: toUserJson(result.user), ...tokenFields };
  });

/** Validates the body's shape with the FDI's messages; unknown keys are ignored (shouldTryLinkingWithSessionUser is read by the handler). */
export function parseSignInUpBody(body: Record<string, unknown>): SignInUpInput {
  const { thirdPartyId, clientType, redirectURIInfo, oAuthTokens } = body;
  if (thirdPartyId === undefined || thirdPartyId === null || thirdPartyId === "") throw badInput("Please provide the thirdPartyId in request body");
  if (typeof thirdPartyId !== "string") throw badInput("thirdPartyId must be a string");
  if (clientType !== undefined && clientType !== null && typeof clientType !== "string") throw badInput("clientType must be a string");
  const input: SignInUpInput = { thirdPartyId, clientType: typeof clientType === "string" ? clientType : undefined };
  if (redirectURIInfo !== undefined && redirectURIInfo !== null) {
    if (!isObject(redirectURIInfo)) throw badInput("redirectURIInfo must be an object");
    const { redirectURIOnProviderDashboard: uri, redirectURIQueryParams: params, pkceCodeVerifier } = redirectURIInfo;
    if (uri === undefined || uri === null || uri === "") throw badInput("Please provide the redirectURIOnProviderDashboard in request body");
    if (typeof uri !== "string") throw badInput("redirectURIOnProviderDashboard must be a string");
    if (!isObject(params)) throw badInput("Please provide the redirectURIQueryParams in request body");
    if (pkceCodeVerifier !== undefined && pkceCodeVerifier !== null && typeof pkceCodeVerifier !== "string") throw badInput("pkceCodeVerifier must be a string");
    input.redirectURIInfo = { redirectURIOnProviderDashboard: uri, redirectURIQueryParams: params, pkceCodeVerifier: pkceCodeVerifier || undefined };
  } else if (oAuthTokens !== undefined && oAuthTokens !== null) {
    if (!isObject(oAuthTokens)) throw badInput("oAuthTokens must be an object");
    const { access_token, id_token } = oAuthTokens;
    if ((access_token !== undefined && typeof access_token !== "string") || (id_token !== undefined && typeof id_token !== "string")) {
      throw badInput("oAuthTokens.access_token and oAuthTokens.id_token must be strings");
    }
    input.oAuthTokens = { access_token: (access_token as string | undefined) || undefined, id_token: (id_token as string | undefined) || undefined };
  } else {
    throw badInput("Please provide one of redirectURIInfo or oAuthTokens in the request body");
  }
  return input;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === "object" && !Array.isArray(v);
}
