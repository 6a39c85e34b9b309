import type { ClaimProvider } from "../core/claims.js";
import { findPersonRoles } from "./store.js";

/**
 * The person's roles and permissions in every access token, in the shape supertokens-web-js's
 * UserRoleClaim and PermissionClaim read (PrimitiveArrayClaim: `{"v": [...], "t": <ms>}`, with `t`
 * the time the value was computed). Computed at sign-in and again at every refresh, inside the
 * session's transaction, so a role given or taken shows at the next refresh. Always present, an
 * empty list when the person has none, so a frontend validator fails closed rather than erroring.
 */
export function createRoleClaims(): ClaimProvider[] {
  // Both claims need the same read; within one transaction (one token) the second reuses the first's.
  const reads = new WeakMap<object, Map<string, Promise<{ roles: string[]; permissions: string[] }>>>();
  const read = (tx: Parameters<ClaimProvider["compute"]>[0], personId: string) => {
    let m = reads.get(tx);
    if (!m) reads.set(tx, (m = new Map()));
    if (!m.has(personId)) m.set(personId, findPersonRoles(tx, personId));
    return m.get(personId)!;
  };
  return [
    { key: "st-role", compute: async (tx, s, now) => ({ v: (await read(tx, s.personId)).roles, t: now }) },
    { key: "st-perm", compute: async (tx, s, now) => ({ v: (await read(tx, s.personId)).permissions, t: now }) },
  ];
}
