import { defineEventHandler } from "h3";
import { toUserJson } from "../../../core/users.js";
import { readJsonBody } from "../../../http/body.js";
import type { HttpDeps } from "../../../http/deps.js";
import { readLinkingSessionUser } from "../../../http/linking-session.js";
import { createSessionResponse } from "../../../http/session-guard.js";
import { signInWithPasskey } from "../accounts.js";
import { parseAuthenticationCredential, parseOptionsId } from "./input.js";

/** POST /webauthn/signin: `{webauthnGeneratedOptionsId, credential, shouldTryLinkingWithSessionUser?}`. */
export const passkeySignIn = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    const optionsId = parseOptionsId(body.webauthnGeneratedOptionsId);
    const credential = parseAuthenticationCredential(body.credential);
    const sessionUserId = await readLinkingSessionUser(event, deps, body);
    const r = await signInWithPasskey(deps.ctx, { optionsId, credential, sessionUserId });
    deps.ctx.metrics.signIn("webauthn", r.status === "OK" ? "success" : r.status === "SIGN_IN_NOT_ALLOWED" ? "not_allowed" : "wrong_credentials");
    if (r.status !== "OK") return r;
    const tokenFields = await createSessionResponse(event, deps, r.recipeUserId, "webauthn");
    return { status: "OK", user: toUserJson(r.user), ...tokenFields };
  });
