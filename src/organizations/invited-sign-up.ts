import { defineEventHandler, setResponseHeader } from "h3";
import { accountsOf } from "../core/account-operations.js";
import type { CoreContext } from "../core/context.js";
import { badInput } from "../core/errors.js";
import { findPeopleByAddress } from "../core/logins.js";
import { issueSession, type OpenedSession, type SessionStart } from "../core/sessions.js";
import { toUserJson, type FieldError, type UserView } from "../core/users.js";
import { readJsonBody } from "../http/body.js";
import { requestLocale } from "../http/pages/locale.js";
import type { Route } from "../http/route.js";
import { attachNewSession, sessionStartOf } from "../http/session-guard.js";
import { selectCreationMode } from "../http/session-transport.js";
import { findOpenInvitationByToken, joinByInvitation } from "./invitations.js";
import { getOrganization } from "./organizations.js";
import * as store from "./store.js";

/**
 * A new person signs up from the invitation's link: the mailed token proves the mailbox, so the
 * account starts with the invited address verified and joins the organization in the same
 * transaction; the invitation is the one mail (no verification mail, no "open the link again").
 * Someone whose address has an account already signs in and accepts (POST /organizations/invitations/accept).
 */

export type InvitedSignUpResult =
  | { status: "OK"; user: UserView; organizationId: string; role: string; opened: OpenedSession }
  | { status: "INVITATION_INVALID_TOKEN_ERROR" }
  | { status: "INVITATION_ACCOUNT_EXISTS_ERROR" }
  | { status: "FIELD_ERROR"; formFields: FieldError[] }
  | { status: "SIGN_UP_NOT_ALLOWED"; reason: string };

export type InvitationSummary =
  | { status: "OK"; email: string; organization: { name: string }; role: string; expiresAt: number; hasAccount: boolean }
  | { status: "INVITATION_INVALID_TOKEN_ERROR" };

const invalid = { status: "INVITATION_INVALID_TOKEN_ERROR" } as const;
const accountExists = { status: "INVITATION_ACCOUNT_EXISTS_ERROR" } as const;
class InvitationTaken extends Error {}

const tokenOf = (token: unknown): string => {
  if (typeof token !== "string" || !token) throw badInput("token is required");
  return token;
};

/**
 * What the link's holder is invited to: the address, the organization's name, the role, and whether
 * the address has an account (to sign in rather than up). Only to the token's holder: the mailbox.
 */
export async function describeInvitation(ctx: CoreContext, token: unknown): Promise<InvitationSummary> {
  const inv = await findOpenInvitationByToken(ctx.store.db, tokenOf(token), ctx.clock.now());
  if (!inv) return invalid;
  const org = await store.findOrganization(ctx.store.db, inv.organization_id);
  if (!org) return invalid;
  const hasAccount = (await findPeopleByAddress(ctx.store.db, ctx.logins, inv.email)).length > 0;
  return { status: "OK", email: inv.email, organization: { name: org.name }, role: inv.role, expiresAt: Number(inv.expires_at), hasAccount };
}

/**
 * Signs the invited address up with `password` (verified, joined, first session opened): one
 * transaction. `locale` (the page's) is stored for the new person's mail, as a password sign-up does.
 */
export async function signUpByInvitation(ctx: CoreContext, input: { token: unknown; password: unknown; start: SessionStart; locale?: string }): Promise<InvitedSignUpResult> {
  const token = tokenOf(input.token);
  if (typeof input.password !== "string") throw badInput("password is required");
  const now = ctx.clock.now();
  const inv = await findOpenInvitationByToken(ctx.store.db, token, now);
  if (!inv) return invalid;
  if ((await findPeopleByAddress(ctx.store.db, ctx.logins, inv.email)).length > 0) return accountExists;
  let joined: { organizationId: string; role: string } | undefined;
  try {
    const r = await accountsOf(ctx, "password").signUp(ctx, {
      email: inv.email, password: input.password, verified: true, source: "invitation", start: input.start, locale: input.locale,
      within: async (tx, personId) => {
        // Taken again inside the transaction: a second click, or a revoke meanwhile, loses here.
        const open = await findOpenInvitationByToken(tx, token, now);
        const res = open && (await joinByInvitation(tx, open, personId, now));
        if (res?.status !== "OK") throw new InvitationTaken();
        joined = res;
      },
    });
    if (r.status === "ADDRESS_EXISTS") return accountExists;
    if (r.status !== "OK") return r;
    return { status: "OK", user: r.user, organizationId: joined!.organizationId, role: joined!.role, opened: r.opened! };
  } catch (err) {
    if (err instanceof InvitationTaken) return invalid;
    throw err;
  }
}

/** The two public routes of an invitation's link (no session: the token is the proof). */
export const invitedSignUpRoutes: readonly Route[] = [
  // Token submissions: a guessed token is counted like a wrong reset token.
  { method: "POST", path: "/organizations/invitations/describe", session: "none", limits: ["invalid-token-ip", "token-ip"], handler: (deps) => defineEventHandler(async (event) => {
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    setResponseHeader(event, "cache-control", "no-store");
    return describeInvitation(deps.ctx, body.token);
  }) },
  { method: "POST", path: "/organizations/invitations/signup", session: "none", limits: ["signup-ip", "invalid-token-ip", "token-ip"], handler: (deps) => defineEventHandler(async (event) => {
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    const mode = selectCreationMode(event, deps.ctx.config);
    const r = await signUpByInvitation(deps.ctx, { token: body.token, password: body.password, start: sessionStartOf(event, deps, "emailpassword"), locale: requestLocale(event, deps.ctx.words) });
    setResponseHeader(event, "cache-control", "no-store");
    if (r.status !== "OK") return r;
    // The account is committed: an outage from here on must not read as "nothing happened".
    const tokens = await issueSession(deps.ctx, r.opened).catch((err) => { throw accountsOf(deps.ctx, "password").describeInterruptedSignUp(err, true); });
    return { status: "OK", user: toUserJson(r.user), organization: await getOrganization(deps.ctx, r.organizationId), role: r.role, ...attachNewSession(event, deps, mode, tokens) };
  }) },
];
