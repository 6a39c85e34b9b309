import type { Kysely } from "kysely";
import * as people from "../store/people.js";
import type { DB } from "../store/schema.js";
import type { CoreContext } from "./context.js";

/**
 * Ways in: everything that lets someone act as a person without proving who they are again (the
 * kernel's sessions, an OAuth grant with its refresh and access tokens, and later API keys,
 * support sessions, SSO links). A room that holds one declares it once (Room.waysIn); every
 * security event (a password changed, reset or set by an operator, the first proof of an address,
 * "sign out everywhere", a passkey recovery, a deletion) ends them all through endWaysIn, in its
 * own transaction, and never names a room. A way in that is not declared is one no event ends:
 * test/core/ways-in-matrix.test.ts opens every declared one through HTTP and fails on one it cannot.
 */
export interface WayIn {
  /** Its id: the key of what endWaysIn returns and of the events' `endedWaysIn` (e.g. "sessions"). */
  id: string;
  /** How operators' tools, answers and mails name one and several ("session", "sessions"). */
  names: { one: string; many: string };
  /** The target's live ways in of this kind, newest first. */
  list(db: Kysely<DB>, ctx: CoreContext, target: WayInTarget): Promise<LiveWayIn[]>;
  /**
   * Ends the target's ways in of this kind in the caller's transaction (and writes what the room
   * records about it, e.g. its own events); returns the ids of those it ended. `keepSession` is
   * the kernel session that asked (a password change keeps it): only the sessions' way in reads it.
   */
  end(tx: Kysely<DB>, ctx: CoreContext, target: WayInTarget, how: EndHow): Promise<string[]>;
}

/**
 * Whose ways in. A way in held by the person as a whole (an OAuth grant: the person consented)
 * belongs to `personId`; one held by a login (a session names the login it signed in with)
 * belongs to one of `logins`. Every event names all the person's logins, but the first proof of
 * an address, which names only the logins it evicts (the proving login's sessions stay).
 */
export interface WayInTarget { personId: string; logins: readonly string[] }

export interface EndHow {
  /** Why (a session's revoke_reason, a room's event): "password_changed", "password_reset"… */
  reason: string;
  /** Who asked: "account", "admin-api", "cli", an admin of the dashboard… */
  source: string;
  now: number;
  keepSession?: string;
}

/** One live way in as a list shows it: never a token or a hash. */
export interface LiveWayIn { id: string; since: number; until: number | null; login?: string }

/** What endWaysIn ended, by way in id (every declared one is present, maybe empty). */
export type EndedWaysIn = Record<string, string[]>;

/** The declared ways in, each id once (the composition root builds CoreContext.waysIn with it). */
export function checkWaysIn(list: readonly WayIn[]): readonly WayIn[] {
  const seen = new Set<string>();
  for (const w of list) {
    if (seen.has(w.id)) throw new Error(`way in ${w.id} is declared twice`);
    seen.add(w.id);
  }
  return list;
}

/**
 * Ends every declared way in of the person of `userId` (any of their login ids), in the caller's
 * transaction: the one function every security event calls. `logins` narrows the ways in held by
 * logins to those (the evicted ones at a first proof); by default all the person's logins.
 * `keepSession`: the event's own session, when its rule keeps it (a self-service password change,
 * "sign out everywhere" on the account page). Returns what ended, by way in.
 */
export async function endWaysIn(tx: Kysely<DB>, ctx: CoreContext, p: { userId: string; reason: string; source: string; keepSession?: string; logins?: readonly string[] }): Promise<EndedWaysIn> {
  const target = await targetOf(tx, p.userId, p.logins);
  const how: EndHow = { reason: p.reason, source: p.source, now: ctx.clock.now(), keepSession: p.keepSession };
  const ended: EndedWaysIn = {};
  for (const w of ctx.waysIn) ended[w.id] = await w.end(tx, ctx, target, how);
  return ended;
}

/** Every live way in of the person of `userId`, by way in id (undefined: no such user). */
export async function listWaysIn(db: Kysely<DB>, ctx: CoreContext, userId: string): Promise<Record<string, LiveWayIn[]> | undefined> {
  if ((await people.findPersonId(db, userId)) === undefined) return undefined;
  const target = await targetOf(db, userId);
  const out: Record<string, LiveWayIn[]> = {};
  for (const w of ctx.waysIn) out[w.id] = await w.list(db, ctx, target);
  return out;
}

/** How many of each ended, for events and answers: { sessions: 2, "oauth-grants": 1 }. */
export function countEnded(ended: EndedWaysIn): Record<string, number> {
  return Object.fromEntries(Object.entries(ended).map(([id, ids]) => [id, ids.length]));
}

/** The total of what ended (0: nothing was live). */
export const totalEnded = (ended: EndedWaysIn): number => Object.values(ended).reduce((n, ids) => n + ids.length, 0);

/** What ended in words, in the declared ways' names: "2 sessions and 1 connected app" ("nothing" when none). */
export function describeEnded(ctx: Pick<CoreContext, "waysIn">, ended: EndedWaysIn): string {
  const parts = ctx.waysIn.filter((w) => (ended[w.id]?.length ?? 0) > 0).map((w) => `${ended[w.id].length} ${ended[w.id].length === 1 ? w.names.one : w.names.many}`);
  if (parts.length === 0) return "nothing";
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

async function targetOf(db: Kysely<DB>, userId: string, logins?: readonly string[]): Promise<WayInTarget> {
  const personId = (await people.findPersonId(db, userId)) ?? userId;
  return { personId, logins: logins ?? (await people.findPersonMemberIds(db, personId)) };
}
