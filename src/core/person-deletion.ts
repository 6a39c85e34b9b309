import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";
import type { CoreContext } from "./context.js";
import { AuthError } from "./errors.js";

/**
 * What a room says when a person is about to be deleted (Room.personDeletion): every path that
 * deletes a person (the account's own deletion, the admin API, the CLI, the dashboard) asks the
 * rooms here first, so a room can refuse (the person holds something no one else could take over)
 * or remove what would be left behind with no one. The kernel never names a room.
 */
export interface PersonDeletion {
  /** Why the person cannot be deleted now, as a sentence they (or the operator) can act on; undefined: no objection. */
  refuse(db: Kysely<DB>, personId: string): Promise<string | undefined>;
  /** In the deletion's transaction, before the person's rows go: what the room removes with them. */
  before?(tx: Kysely<DB>, ctx: CoreContext, p: { personId: string; now: number; source: string }): Promise<void>;
}

/** Throws 409 with every room's reason when any refuses the person's deletion. */
export async function checkPersonDeletion(db: Kysely<DB>, ctx: CoreContext, personId: string): Promise<void> {
  const reasons: string[] = [];
  for (const d of ctx.personDeletion) {
    const why = await d.refuse(db, personId);
    if (why) reasons.push(why);
  }
  if (reasons.length) throw new AuthError("CONFLICT", `The account cannot be deleted yet: ${reasons.join(" ")}`);
}
