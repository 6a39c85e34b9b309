import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";

/** When the organization's SCIM token was made (never the token: only its hash is kept), or undefined when it has none. */
export async function findTokenCreatedAt(db: Kysely<DB>, organizationId: string): Promise<number | undefined> {
  const row = await db.selectFrom("scim_tokens").select("created_at").where("organization_id", "=", organizationId).executeTakeFirst();
  return row ? Number(row.created_at) : undefined;
}
