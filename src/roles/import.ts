import { refuseImport as refuse, type ImportPart } from "../core/import-parts.js";
import { insertRole, insertUserRole } from "./store.js";

const ROLE = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/;

/**
 * Roles in `users import` (core/import-parts.ts): the record's "roles", names of app-wide roles
 * the person holds (created when this server has none of that name, without permissions: the
 * operator gives those, `authsvc roles`), and the roles another system's export names (move-in/).
 */
export const rolesImport: ImportPart<string[]> = {
  id: "roles",
  top(o) {
    if (o.roles === undefined || o.roles === null) return undefined;
    if (!Array.isArray(o.roles) || o.roles.length > 100) refuse("roles must be a list of at most 100 role names");
    const roles = o.roles as unknown[];
    roles.forEach((r, i) => { if (typeof r !== "string" || !ROLE.test(r)) refuse(`roles[${i}] must be 1-100 letters, digits, '_', '.', ':' or '-', starting with a letter or digit`); });
    return [...new Set(roles as string[])];
  },
  takes: { role: { top: (facts) => ({ roles: [...new Set(facts.map((f) => f.role))] }) } },
  async insert(tx, people, { now }) {
    for (const role of new Set(people.flatMap((p) => p.part))) await insertRole(tx, role, now);
    for (const p of people) for (const role of p.part) await insertUserRole(tx, p.id, role, now);
  },
};
