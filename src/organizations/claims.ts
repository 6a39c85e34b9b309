import type { Kysely } from "kysely";
import type { ClaimProvider } from "../core/claims.js";
import type { DB } from "../store/schema.js";
import { permissionsOfRole } from "./org-roles.js";
import { findActiveMembership } from "./store.js";

export const ORG_CLAIM = "org";

/** The `org` claim: the person's active organization and their role and permissions there. */
export interface OrgClaimValue { id: string; slug: string; role: string; permissions: string[] }

/** The claim's value now for a person (null: no active organization). */
export async function computeOrgClaim(tx: Kysely<DB>, personId: string): Promise<OrgClaimValue | null> {
  const m = await findActiveMembership(tx, personId);
  if (!m) return null;
  return { id: m.organization_id, slug: m.slug, role: m.role, permissions: (await permissionsOfRole(tx, m.role)) ?? [] };
}

/**
 * The `org` claim in every access token, computed when the session starts and at every refresh
 * inside the session's transaction, so a role change, a removal or a deleted organization shows
 * at the next refresh. Always present (null without an active organization), so an app's check
 * fails closed instead of erroring on a missing key.
 */
export function createOrgClaim(): ClaimProvider {
  return {
    keys: [ORG_CLAIM],
    compute: async (tx, subject) => ({ [ORG_CLAIM]: await computeOrgClaim(tx, subject.personId) }),
  };
}
