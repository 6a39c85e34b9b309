import type { ClaimProvider } from "../core/claims.js";
import { findPersonRoles } from "./store.js";

/**
 * The person's roles and permissions in every access token, in the shape supertokens-web-js's
 * UserRoleClaim and PermissionClaim read (PrimitiveArrayClaim: `{"v": [...], "t": <ms>}`, with `t`
 * the time the value was computed). Computed at sign-in and again at every refresh, inside the
 * session's transaction, so a role given or taken shows at the next refresh. Always present, an
 * empty list when the person has none, so a frontend validator fails closed rather than erroring.
 */
export function createRoleClaims(): ClaimProvider {
  return {
    keys: ["st-role", "st-perm"],
    async compute(tx, s, now) {
      const { roles, permissions } = await findPersonRoles(tx, s.personId);
      return { "st-role": { v: roles, t: now }, "st-perm": { v: permissions, t: now } };
    },
  };
}
