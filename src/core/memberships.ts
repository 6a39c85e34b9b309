import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";
import type { CoreContext } from "./context.js";

/**
 * Organizations and their members, as far as a room outside organizations needs them (enterprise
 * SSO: SCIM provisioning and SAML sign-in). The room that keeps organizations offers this in its
 * declaration (Room.memberships); the composition root puts it in the context once
 * (kernel/offers.ts), and a consumer reaches it through `membershipsOf`. No room imports another.
 */
export interface Memberships {
  findOrganization(db: Kysely<DB>, id: string): Promise<OrganizationRef | undefined>;
  findOrganizationBySlug(db: Kysely<DB>, slug: string): Promise<OrganizationRef | undefined>;
  /** The organization that proved this domain (a verified domain), if any. */
  findDomain(db: Kysely<DB>, domain: string): Promise<{ domain: string; organization_id: string } | undefined>;
  /** Locks the organization's row in the transaction (false: no such organization). */
  lockOrganization(tx: Kysely<DB>, id: string): Promise<boolean>;
  /** The membership of a person (any of their logins' user ids) in an organization. */
  findMember(db: Kysely<DB>, organizationId: string, personId: string): Promise<Member | undefined>;
  insertMember(tx: Kysely<DB>, row: Member): Promise<void>;
  setMemberRole(tx: Kysely<DB>, organizationId: string, userId: string, role: string): Promise<void>;
  deleteMember(tx: Kysely<DB>, organizationId: string, userId: string): Promise<boolean>;
  /** The role an organization's owner has (never changed by a directory). */
  ownerRole: string;
  /** A role's permissions, built in or the operator's; undefined when no such role exists. */
  permissionsOfRole(db: Kysely<DB>, role: string): Promise<string[] | undefined>;
}

export interface OrganizationRef { id: string; name: string; slug: string }
export interface Member { organization_id: string; user_id: string; role: string; created_at: number; active_at: number | null }

/** The rooms' memberships; none is a programming error (kernel/offers.ts refuses to start a room that needs them without). */
export function membershipsOf(ctx: Pick<CoreContext, "memberships">): Memberships {
  if (!ctx.memberships) throw new Error("no room offers memberships (Room.memberships): add the organizations room to src/rooms.ts");
  return ctx.memberships;
}
