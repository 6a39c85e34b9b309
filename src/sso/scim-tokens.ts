import type { CoreContext } from "../core/context.js";
import { AuthError } from "../core/errors.js";
import { insertEvent } from "../store/events.js";
import { createSecretToken, hashToken } from "../util/random.js";
import { membershipsOf } from "../core/memberships.js";
import * as store from "./store.js";

/**
 * Makes the organization's SCIM bearer token: 256 random bits, shown once to whoever asked and
 * stored as its SHA-256 only. A new token replaces the old one in the same transaction, so
 * rotating is one command and the old token is refused from the next request on.
 */
export async function rotateScimToken(ctx: CoreContext, organizationId: string, source: string): Promise<string> {
  const token = createSecretToken();
  const now = ctx.clock.now();
  await ctx.store.writeTx(async (tx) => {
    if (!(await membershipsOf(ctx).lockOrganization(tx, organizationId))) throw new AuthError("NOT_FOUND", "No such organization");
    await store.putToken(tx, organizationId, hashToken(token), now);
    await insertEvent(tx, { at: now, type: "organization.scim_token_created", userId: null, data: { organizationId, source } });
  });
  return token;
}
