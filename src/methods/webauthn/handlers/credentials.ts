import { defineEventHandler } from "h3";
import { badInput } from "../../../core/errors.js";
import { readJsonBody } from "../../../http/body.js";
import type { HttpDeps } from "../../../http/deps.js";
import { sessionOf } from "../../../http/guard.js";
import { addCredential, describePasskeyOwner, listPersonCredentials, removeCredential } from "../credentials.js";
import { parseOptionsId, parseRegistrationCredential } from "./input.js";

/**
 * GET /webauthn/credential/list: the signed-in person's passkeys, plus (beyond the SDK's shape, for
 * the hosted passkeys page) the person's address and passkey logins.
 */
export const listCredentialsHandler = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const session = sessionOf(event);
    const credentials = (await listPersonCredentials(deps.ctx, session.userId)) ?? [];
    const owner = await describePasskeyOwner(deps.ctx, session.userId);
    return { status: "OK", credentials, email: owner?.email ?? "", passkeyLogins: owner?.passkeyLogins ?? [] };
  });

/** POST /webauthn/credential `{webauthnGeneratedOptionsId, recipeUserId, credential}`: adds a passkey. */
export const addCredentialHandler = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const session = sessionOf(event);
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    const optionsId = parseOptionsId(body.webauthnGeneratedOptionsId);
    if (typeof body.recipeUserId !== "string" || body.recipeUserId === "") throw badInput("Please provide the recipeUserId as a string");
    const credential = parseRegistrationCredential(body.credential);
    const r = await addCredential(deps.ctx, { session: { userId: session.userId, sessionHandle: session.sessionHandle }, recipeUserId: body.recipeUserId, optionsId, credential });
    return r.status === "OK" ? { status: "OK" } : r;
  });

/**
 * POST /webauthn/credential/remove `{webauthnCredentialId}`. Refusing the last way in is a
 * GENERAL_ERROR with the reason as `message`: the SDK's own shape for an error it shows as it is.
 */
export const removeCredentialHandler = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const session = sessionOf(event);
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    const id = body.webauthnCredentialId;
    if (typeof id !== "string" || id === "") throw badInput("Please provide the webauthnCredentialId as a string");
    const r = await removeCredential(deps.ctx, { userId: session.userId, credentialId: id, source: "api" });
    return r.status === "LAST_WAY_IN" ? { status: "GENERAL_ERROR", message: r.reason } : r;
  });
