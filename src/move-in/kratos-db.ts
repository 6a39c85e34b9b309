import type { SourceRecord } from "./common.js";
import { openSourceDb, sourceDbError } from "./source-db.js";

const PAGE = 1000;
const WHAT = "Kratos' database";

/**
 * Kratos' PostgreSQL database, read-only, a page of identities at a time (by id): each identity
 * with its credentials (config by type name: password, oidc, totp) and verifiable addresses, in
 * the shape its admin API writes (kratos.ts reads that). Tables and columns as Kratos' migrations
 * leave them: identities, identity_credentials, identity_credential_types, identity_verifiable_addresses.
 */
export async function* readKratosDatabase(url: string): AsyncIterable<{ where: string; identity: SourceRecord }> {
  const db = openSourceDb(url, WHAT);
  try {
    for (let after: string | undefined; ;) {
      let identities: SourceRecord[], credentials: SourceRecord[], addresses: SourceRecord[];
      try {
        identities = await db.selectFrom("identities").select(["id", "traits", "state", "metadata_public", "metadata_admin", "created_at"])
          .$if(after !== undefined, (q) => q.where("id", ">", after)).orderBy("id").limit(PAGE).execute();
        if (identities.length === 0) break;
        const ids = identities.map((i) => i.id);
        credentials = await db.selectFrom("identity_credentials as c").innerJoin("identity_credential_types as t", "t.id", "c.identity_credential_type_id")
          .select(["c.identity_id", "c.config", "t.name"]).where("c.identity_id", "in", ids).orderBy("c.created_at").execute();
        addresses = await db.selectFrom("identity_verifiable_addresses").select(["identity_id", "value", "verified", "via"]).where("identity_id", "in", ids).orderBy("created_at").execute();
      } catch (err) { return sourceDbError(err, WHAT); }
      after = String(identities[identities.length - 1].id);
      for (const i of identities) {
        const own = credentials.filter((c) => c.identity_id === i.id);
        yield {
          where: `identity ${String(i.id)}`,
          identity: {
            ...i,
            credentials: Object.fromEntries(own.map((c) => [String(c.name), { type: c.name, config: c.config }])),
            verifiable_addresses: addresses.filter((a) => a.identity_id === i.id),
          },
        };
      }
      if (identities.length < PAGE) break;
    }
  } finally {
    await db.destroy();
  }
}
