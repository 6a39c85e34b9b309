import type { LinkingSession } from "../../../core/login-policy.js";
import { defineEventHandler } from "h3";
import type { CoreContext } from "../../../core/context.js";
import { toUserJson, type UserView } from "../../../core/users.js";
import { readJsonBody } from "../../../http/body.js";
import type { HttpDeps } from "../../../http/deps.js";
import { readLinkingSessionUser } from "../../../http/linking-session.js";
import { requestLocale } from "../../../http/pages/locale.js";
import { createSessionResponse } from "../../../http/session-guard.js";
import { signInWithPasskey, signUpWithPasskey } from "../accounts.js";
import { parseAuthenticationCredential, parseOptionsId, parseRegistrationCredential } from "./input.js";

type Outcome = { status: "OK"; user: UserView; recipeUserId: string } | { status: string };

/**
 * POST /webauthn/signup and /webauthn/signin: `{webauthnGeneratedOptionsId, credential,
 * shouldTryLinkingWithSessionUser?}` in, a session (in the requested transport) or the outcome out.
 */
function passkeySessionHandler<C>(parse: (v: unknown) => C, run: (ctx: CoreContext, input: { optionsId: string; credential: C; session?: LinkingSession; locale?: string }) => Promise<Outcome>, notAllowed: string) {
  return (deps: HttpDeps) =>
    defineEventHandler(async (event) => {
      const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
      const optionsId = parseOptionsId(body.webauthnGeneratedOptionsId);
      const credential = parse(body.credential);
      const session = await readLinkingSessionUser(event, deps, body);
      // A sign-up stores the language the person signed up in (the page's, else the browser's) for their mail.
      const r = await run(deps.ctx, { optionsId, credential, session, locale: requestLocale(event, deps.ctx.words) });
      deps.ctx.metrics.signIn("webauthn", r.status === "OK" ? "success" : r.status === notAllowed ? "not_allowed" : "wrong_credentials");
      if (!("user" in r)) return r;
      const tokenFields = await createSessionResponse(event, deps, r.recipeUserId, "webauthn");
      return { status: "OK", user: toUserJson(r.user), ...tokenFields };
    });
}

export const passkeySignUp = passkeySessionHandler(parseRegistrationCredential, signUpWithPasskey, "SIGN_UP_NOT_ALLOWED");
export const passkeySignIn = passkeySessionHandler(parseAuthenticationCredential, signInWithPasskey, "SIGN_IN_NOT_ALLOWED");
