import type { CoreContext } from "../../core/context.js";
import { listLimits, type LimitView } from "../../core/limits-admin.js";
import { listUserSessions, type SessionView } from "../../core/session-admin.js";
import { getUser, type UserView } from "../../core/users.js";
import { listPersonCredentials, type CredentialView } from "../../methods/webauthn/credentials.js";
import { countUnusedRecoveryCodes, findDevices } from "../../methods/totp/store.js";
import { getUserRoles } from "../../roles/roles.js";
import { findRequiredFactors } from "../../store/mfa.js";
import { findPersonMemberIds } from "../../store/people.js";
import { listRecentEventsOfUsers, listRecentMailsTo, type RecentEventRow, type RecentMailRow } from "../../store/person-activity.js";

/**
 * Everything the person page shows about one person, read through the same functions the CLI and
 * the admin API use (getUser, listUserSessions, listLimits, listPersonCredentials, getUserRoles),
 * plus the few reads only this page needs (second-factor state, recent events and mails). Nothing
 * secret is loaded: no hashes, token values, TOTP secrets or mail bodies.
 */

export interface SecondFactorState {
  /** Device names and whether each was confirmed with a code. */
  devices: Array<{ name: string; verified: boolean }>;
  recoveryCodesLeft: number;
  /** The person must pass TOTP at sign-in. */
  required: boolean;
}

export interface PersonRecord {
  user: UserView;
  /** Every recipe user id of the person (their own first). */
  memberIds: string[];
  /** Every address on any of their login methods, current email first. */
  addresses: string[];
  roles: string[];
  sessions: SessionView[];
  secondFactor: SecondFactorState;
  passkeys: CredentialView[];
  /** Live rate-limit counters on their addresses (a lock or a wait shows here). */
  locks: LimitView[];
  events: RecentEventRow[];
  mails: RecentMailRow[];
}

export const RECENT_ROWS = 20;

/** The person `id` names (their own id or any login method's), or undefined. */
export async function loadPersonRecord(ctx: CoreContext, id: string): Promise<PersonRecord | undefined> {
  const user = await getUser(ctx, id);
  if (!user) return undefined;
  const db = ctx.store.db;
  const memberIds = await findPersonMemberIds(db, user.id);
  const addresses = [...new Set([user.email, ...user.loginMethods.map((m) => m.email)])].filter((a) => a.length > 0);
  const [roles, sessions, devices, codesLeft, required, passkeys, limits, events, mails] = await Promise.all([
    getUserRoles(ctx, user.id),
    listUserSessions(ctx, user.id),
    findDevices(db, user.id),
    countUnusedRecoveryCodes(db, user.id),
    findRequiredFactors(db, user.id),
    listPersonCredentials(ctx, user.id),
    listLimits(ctx),
    listRecentEventsOfUsers(db, memberIds, RECENT_ROWS),
    listRecentMailsTo(db, addresses, RECENT_ROWS),
  ]);
  return {
    user,
    memberIds,
    addresses,
    roles: roles?.roles ?? [],
    sessions,
    secondFactor: { devices: devices.map((d) => ({ name: d.name, verified: d.verified_at !== null })), recoveryCodesLeft: codesLeft, required: required.includes("totp") },
    passkeys: passkeys ?? [],
    locks: limits.filter((l) => addresses.includes(l.key)),
    events,
    mails,
  };
}
