import { defineEventHandler } from "h3";
import { issueSession } from "../../../core/sessions.js";
import { toUserJson } from "../../../core/users.js";
import { describeInterruptedSignUp, signUpWithPassword } from "../accounts.js";
import { readJsonBody } from "../../../http/body.js";
import type { HttpDeps } from "../../../http/deps.js";
import { parseFormFields } from "../../../http/form-fields.js";
import { attachNewSession, sessionStartOf } from "../../../http/session-guard.js";
import { selectCreationMode } from "../../../http/session-transport.js";
import { readLinkingSessionUser } from "../../../http/linking-session.js";
import { requestLocale } from "../../../http/pages/locale.js";

/**
 * POST /signup (seed #1): create an email/password user and start a session in the requested mode.
 * The account and its first session commit together (one transaction, one durable sync).
 */
export const signUp = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    const { email, password } = parseFormFields(body, ["email", "password"]);
    const session = await readLinkingSessionUser(event, deps, body);
    const mode = selectCreationMode(event, deps.ctx.config);
    const r = await signUpWithPassword(deps.ctx, { email, password, session, start: sessionStartOf(event, deps, "emailpassword"), locale: requestLocale(event, deps.ctx.words) });
    if (r.status !== "OK") return r;
    // The account is committed: an outage from here on must not read as "nothing happened".
    const tokens = await issueSession(deps.ctx, r.opened!).catch((err) => { throw describeInterruptedSignUp(err, true); });
    return { status: "OK", user: toUserJson(r.user), ...attachNewSession(event, deps, mode, tokens) };
  });
