import { insertEvent } from "../store/events.js";
import * as people from "../store/people.js";
import type { CoreContext } from "./context.js";
import { joinPeople } from "./person-join.js";

/**
 * Linking and unlinking by an operator (CLI `users link|unlink`, admin API): the operator has
 * checked who is who, so the verified-address rules do not apply, but every change is one
 * transaction with an event naming both ids.
 */

export type LinkResult = { status: "OK"; personId: string; changed: boolean } | { status: "NOT_FOUND"; id: string };

/**
 * Makes the person of `otherId` (all their login methods) part of the person of `primaryId`, whose
 * id they keep. The same join as a sign-in's (core/person-join.ts: nothing of either is lost, the
 * person is mailed), without the session checks: the operator decided.
 */
export async function linkUsers(ctx: CoreContext, primaryId: string, otherId: string, source = "api"): Promise<LinkResult> {
  return ctx.store.writeTx(async (tx): Promise<LinkResult> => {
    const to = await people.findPersonId(tx, primaryId);
    if (to === undefined) return { status: "NOT_FOUND", id: primaryId };
    const from = await people.findPersonId(tx, otherId);
    if (from === undefined) return { status: "NOT_FOUND", id: otherId };
    if (from === to) return { status: "OK", personId: to, changed: false };
    await joinPeople(tx, ctx, { from, to, recipeUserId: otherId, source });
    return { status: "OK", personId: to, changed: true };
  });
}

export type UnlinkResult = { status: "OK"; personId: string; remainingPersonId: string } | { status: "NOT_FOUND" } | { status: "NOT_LINKED" };

/**
 * Takes the login method of recipe user `recipeUserId` out of its person: it becomes a person of
 * its own again, with its own id. When it was the person's first method (whose id the person
 * carries), the next oldest method's id becomes the others' person id. Sessions stay; their `sub`
 * follows at the next refresh.
 */
export async function unlinkUser(ctx: CoreContext, recipeUserId: string, source = "api"): Promise<UnlinkResult> {
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx): Promise<UnlinkResult> => {
    const personId = await people.findPersonId(tx, recipeUserId);
    if (personId === undefined) return { status: "NOT_FOUND" };
    const members = await people.findPersonMemberIds(tx, personId);
    if (members.length < 2) return { status: "NOT_LINKED" };
    let remaining = personId;
    if (recipeUserId === personId) {
      remaining = members.find((m) => m !== personId)!;
      await people.rehomeMembers(tx, personId, remaining, now);
    } else {
      await people.detachRecipeUser(tx, recipeUserId, now);
    }
    await insertEvent(tx, { at: now, type: "user.unlinked", userId: remaining, data: { recipeUserId, source } });
    return { status: "OK", personId: recipeUserId, remainingPersonId: remaining };
  });
}
