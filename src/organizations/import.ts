import { refuseImport as refuse, type ImportPart } from "../core/import-parts.js";
import { createId } from "../util/random.js";
import { MEMBER_FALLBACK } from "./org-roles.js";
import { findOrganizationBySlug, insertMember, insertOrganization } from "./store.js";

/** A slug from a name, as organizations.ts makes one ("Acme, Inc." → "acme-inc"), without the random tail. */
const slugOf = (name: string) => name.normalize("NFKD").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40).replace(/-+$/, "") || "org";

/**
 * Memberships in `users import` (core/import-parts.ts): the record's "organizations", names of the
 * organizations the person is a member of (role "member"), and the groups another system's export
 * names when they are to become organizations (move-in/, `--groups-as-organizations`). An
 * organization is found by the slug its name makes, or created with that slug: every person of the
 * import naming it, in any batch or a later run, joins the same one.
 */
export const organizationsImport: ImportPart<string[]> = {
  id: "organizations",
  top(o) {
    if (o.organizations === undefined || o.organizations === null) return undefined;
    if (!Array.isArray(o.organizations) || o.organizations.length > 100) refuse("organizations must be a list of at most 100 organization names");
    const names = (o.organizations as unknown[]).map((n, i) => {
      // eslint-disable-next-line no-control-regex
      if (typeof n !== "string" || !n.trim() || n.trim().length > 100 || /[\x00-\x1f\x7f]/.test(n)) return refuse(`organizations[${i}] must be a name of 1-100 characters (no control characters)`);
      return n.trim();
    });
    return [...new Map(names.map((n) => [slugOf(n), n])).values()];
  },
  takes: { "organization-membership": { top: (facts) => ({ organizations: [...new Set(facts.map((f) => f.organization))] }) } },
  async insert(tx, people, { now }) {
    const ids = new Map<string, string>();
    for (const name of new Set(people.flatMap((p) => p.part))) {
      const slug = slugOf(name);
      if (ids.has(slug)) continue;
      const found = await findOrganizationBySlug(tx, slug);
      if (found) { ids.set(slug, found.id); continue; }
      const id = createId();
      await insertOrganization(tx, { id, name, slug, metadata: null, created_at: now, updated_at: now });
      ids.set(slug, id);
    }
    for (const p of people) for (const name of p.part) await insertMember(tx, { organization_id: ids.get(slugOf(name))!, user_id: p.id, role: MEMBER_FALLBACK, created_at: now, active_at: null });
  },
};
