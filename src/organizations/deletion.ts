import type { Kysely } from "kysely";
import type { PersonDeletion } from "../core/person-deletion.js";
import { insertEvent } from "../store/events.js";
import type { DB } from "../store/schema.js";
import { OWNER } from "./org-roles.js";
import * as store from "./store.js";

/** The person's organizations, each with how many members and owners it has. */
async function holdings(db: Kysely<DB>, personId: string) {
  const out = [];
  for (const o of await store.findPersonOrganizations(db, personId)) {
    out.push({ ...o, members: await store.countMembers(db, o.id), owners: await store.countRole(db, o.id, OWNER) });
  }
  return out;
}

/**
 * Deleting a person (their own deletion, the admin API, the CLI, the dashboard): an organization
 * always keeps one owner, so the deletion of the only owner of an organization that has other
 * members is refused, naming those organizations (make another member owner, or delete the
 * organization, first). An organization whose only member is the person goes with them.
 */
export const organizationsOnPersonDeletion: PersonDeletion = {
  async refuse(db, personId) {
    const held = (await holdings(db, personId)).filter((o) => o.role === OWNER && o.owners <= 1 && o.members > 1);
    if (held.length === 0) return undefined;
    const names = held.map((o) => `${o.name} (${o.slug})`).join(", ");
    return `it is the only owner of ${held.length === 1 ? "the organization" : "the organizations"} ${names}; make another member owner, or delete ${held.length === 1 ? "it" : "them"}, first.`;
  },
  async before(tx, _ctx, { personId, now, source }) {
    for (const o of await holdings(tx, personId)) {
      if (o.members > 1 || !(await store.lockOrganization(tx, o.id))) continue;
      await store.deleteOrganization(tx, o.id);
      await insertEvent(tx, { at: now, type: "organization.deleted", userId: personId, data: { organizationId: o.id, slug: o.slug, members: 1, reason: "owner_deleted", source } });
    }
  },
};
