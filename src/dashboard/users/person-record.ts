import type { CoreContext } from "../../core/context.js";
import { listLimits, type LimitView } from "../../core/limits-admin.js";
import { listUserSessions, type SessionView } from "../../core/session-admin.js";
import { getUser, type UserView } from "../../core/users.js";
import type { PersonFact, PersonPagePart, PersonPanel } from "../../http/person-panels.js";
import { findPersonMemberIds } from "../../store/people.js";
import { listRecentEventsOfUsers, listRecentMailsTo, type RecentEventRow, type RecentMailRow } from "../../store/person-activity.js";

/**
 * Everything the person page shows about one person, read through the same functions the CLI and
 * the admin API use (getUser, listUserSessions, listLimits), plus the few reads only
 * this page needs (recent events and mails), and what the rooms' panels and lines read
 * (Room.personPage), all at once. Nothing secret is loaded: no hashes, token values, secrets or
 * mail bodies.
 */

/** A room's panel or line with what it read for this person. */
export interface Loaded<T> { part: T; data: unknown }

export interface PersonRecord {
  user: UserView;
  /** Every recipe user id of the person (their own first). */
  memberIds: string[];
  /** Every address on any of their login methods, current email first. */
  addresses: string[];
  sessions: SessionView[];
  /** The rooms' panels and the lines they add to each other's, in the rooms' order. */
  panels: Loaded<PersonPanel>[];
  facts: Loaded<PersonFact>[];
  /** Live rate-limit counters on their addresses (a lock or a wait shows here). */
  locks: LimitView[];
  events: RecentEventRow[];
  mails: RecentMailRow[];
}

export const RECENT_ROWS = 20;

/** The person `id` names (their own id or any login method's), or undefined. */
export async function loadPersonRecord(ctx: CoreContext, id: string, rooms: Required<PersonPagePart>): Promise<PersonRecord | undefined> {
  const user = await getUser(ctx, id);
  if (!user) return undefined;
  const db = ctx.store.db;
  const memberIds = await findPersonMemberIds(db, user.id);
  const addresses = [...new Set([user.email, ...user.loginMethods.map((m) => m.email)])].filter((a) => a.length > 0);
  const load = <T extends PersonPanel | PersonFact>(part: T) => part.load(ctx, user).then((data): Loaded<T> => ({ part, data }));
  const [sessions, panels, facts, limits, events, mails] = await Promise.all([
    listUserSessions(ctx, user.id),
    Promise.all(rooms.panels.map(load)),
    Promise.all(rooms.facts.map(load)),
    listLimits(ctx),
    listRecentEventsOfUsers(db, memberIds, RECENT_ROWS),
    listRecentMailsTo(db, addresses, RECENT_ROWS),
  ]);
  return {
    user,
    memberIds,
    addresses,
    sessions,
    panels,
    facts,
    locks: limits.filter((l) => addresses.includes(l.key)),
    events,
    mails,
  };
}
