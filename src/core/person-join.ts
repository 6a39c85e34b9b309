import type { Kysely } from "kysely";
import { insertEvent } from "../store/events.js";
import * as people from "../store/people.js";
import { mergeRequiredFactors } from "../store/person-merge.js";
import type { DB } from "../store/schema.js";
import type { CoreContext } from "./context.js";
import { notifyLoginAdded } from "./login-policy.js";

/**
 * Makes person `from` part of person `to`, keeping everything of both: every login method (and so
 * their passkeys, verified addresses and sessions, which name the login), the factors either
 * required, and every row a room keeps under the person (Room.mergePerson: second factors,
 * recovery codes, lock-out, roles, metadata; events stay as written, the join's event names both
 * ids and says what `moved`). A factor either required stays required, so a joined person never
 * signs in with less than either did. The one function for every join: a sign-in that links, an
 * operator's link. Runs in the caller's transaction; writes the `user.linked` event and mails the
 * person about the login that joined (`recipeUserId`, the login that caused it).
 */
export async function joinPeople(tx: Kysely<DB>, ctx: CoreContext, p: { from: string; to: string; recipeUserId: string; source: string }): Promise<void> {
  if (p.from === p.to) return;
  const now = ctx.clock.now();
  const added = await people.findPersonMemberIds(tx, p.from);
  await people.movePerson(tx, p.from, p.to, now);
  const moved: Record<string, unknown> = { requiredFactors: await mergeRequiredFactors(tx, p.from, p.to) };
  for (const merge of ctx.mergePerson) Object.assign(moved, await merge(tx, ctx, { from: p.from, to: p.to, now }));
  await insertEvent(tx, { at: now, type: "user.linked", userId: p.to, data: { recipeUserId: p.recipeUserId, previousUserId: p.from, source: p.source, moved } });
  // Every login that came with `from` is new to `to`: one notice names the one that caused the join.
  if (added.length > 0) await notifyLoginAdded(tx, ctx, p.to, added.includes(p.recipeUserId) ? p.recipeUserId : added[0]);
}
