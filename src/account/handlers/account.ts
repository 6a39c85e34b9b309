import { defineEventHandler, setResponseHeader, type H3Event } from "h3";
import { AuthError, badInput } from "../../core/errors.js";
import { getUser } from "../../core/users.js";
import { readJsonBody } from "../../http/body.js";
import type { HttpDeps } from "../../http/deps.js";
import { sessionOf } from "../../http/guard.js";
import { clearTokens } from "../../http/session-transport.js";
import { cancelDeletion, requestDeletion } from "../deletion.js";
import { confirmEmailChange, requestEmailChange } from "../email.js";
import { changePassword } from "../password.js";
import { requireString, type AccountSubject } from "../reauth.js";
import { listMySessions, revokeMySession, signOutEverywhereElse } from "../sessions.js";
import { countEnded } from "../../core/ways-in.js";
import { findPersonLocale } from "../../store/person-locales.js";
import { setMyLocale } from "../locale.js";

/** The signed-in person (the routes check the session row: a revoked session cannot act). */
function subject(event: H3Event) {
  const s = sessionOf(event);
  const who: AccountSubject = { userId: s.userId, personId: s.primaryUserId, sessionHandle: s.sessionHandle };
  return { s, who };
}

/**
 * GET /account/me: who is signed in (the person's id, primary address, when they joined), so the
 * pages can say whose account it is. No login methods, no tokens: only what the person typed.
 */
export const me = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const { who } = subject(event);
    setResponseHeader(event, "cache-control", "no-store");
    const user = await getUser(deps.ctx, who.personId);
    if (!user) throw new AuthError("UNAUTHORISED", "unauthorised", { clearTokens: true });
    const locale = (await findPersonLocale(deps.ctx.store.db, who.personId)) ?? deps.ctx.words.defaultLocale;
    return { status: "OK", user: { id: user.id, email: user.email, timeJoined: user.timeJoined, locale } };
  });

/** POST /account/locale {locale}: the language my mail is written in (one of the offered locales). */
export const changeMyLocale = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const { who } = await subject(event);
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    return { status: "OK", locale: await setMyLocale(deps.ctx, who, body.locale) };
  });

/** GET /account/sessions: my live sessions with where they started and when they were last used. */
export const mySessions = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const { who } = subject(event);
    setResponseHeader(event, "cache-control", "no-store");
    return { status: "OK", sessions: await listMySessions(deps.ctx, who) };
  });

/** POST /account/sessions/revoke {sessionHandle} | {others: true}: ends one of mine, or all but this one. */
export const revokeSessions = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const { who } = subject(event);
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    if (body.others === true) {
      const ended = countEnded(await signOutEverywhereElse(deps.ctx, who));
      return { status: "OK", revoked: ended.sessions ?? 0, ended };
    }
    if (typeof body.sessionHandle !== "string" || body.sessionHandle.length > 200) throw badInput("give sessionHandle (a string) or others: true");
    return { status: "OK", revoked: await revokeMySession(deps.ctx, who, body.sessionHandle) };
  });

/** POST /account/password {currentPassword, newPassword}. */
export const changeMyPassword = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const { who } = subject(event);
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    return changePassword(deps.ctx, who, requireString(body, "currentPassword"), requireString(body, "newPassword"));
  });

/** POST /account/email {email, password}: mails a confirmation link to the new address. */
export const changeMyEmail = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const { who } = subject(event);
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    return requestEmailChange(deps.ctx, who, requireString(body, "email"), requireString(body, "password"));
  });

/** POST /account/email/confirm {token}: the link from that mail (no session needed). */
export const confirmMyEmail = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    setResponseHeader(event, "cache-control", "no-store");
    return confirmEmailChange(deps.ctx, body.token);
  });

/** POST /account/delete {password?}: re-authenticates, then schedules the deletion (or deletes). */
export const deleteMyAccount = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const { s, who } = subject(event);
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    const r = await requestDeletion(deps.ctx, who, body.password);
    // Every session of the person ended with it, this one included.
    if (r.status === "OK") clearTokens(event, deps.ctx.config, s.mode);
    return r;
  });

/** POST /account/delete/cancel {token}: the link from the grace mail keeps the account. */
export const cancelMyDeletion = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    return cancelDeletion(deps.ctx, body.token);
  });
