import { CommandError, type CommandApp, type CommandSpec } from "../core/commands.js";
import { AuthError } from "../core/errors.js";
import { addDomain, listDomains, removeDomain } from "./domains.js";
import { createInvitation, listInvitations, revokeInvitation } from "./invitations.js";
import {
  addMember, changeMemberRole, createOrganization, deleteOrganization, listAllOrganizations, listMembers, removeMember, updateOrganization,
  toView, type Actor, type OrganizationView,
} from "./organizations.js";
import { findOrganization, findOrganizationBySlug } from "./store.js";

const operator: Actor = { operator: "cli" };

/** The core's refusals in the terminal's terms: bad input is a usage error (exit 2), the rest exit 1. */
async function refusals<T>(work: () => Promise<T>): Promise<T> {
  try { return await work(); } catch (err) {
    if (err instanceof AuthError) throw new CommandError(err.message, err.code === "BAD_INPUT" ? 2 : 1);
    throw err;
  }
}

/** An organization by id or slug. */
async function resolveOrg(app: CommandApp, ref: string): Promise<OrganizationView> {
  const db = app.ctx.store.db;
  const o = (await findOrganization(db, ref)) ?? (await findOrganizationBySlug(db, ref));
  if (!o) throw new CommandError(`no organization ${ref} (give its id or slug; authsvc orgs list shows them)`);
  return toView(o);
}

const org = { name: "<org>", description: "id or slug" };
const user = { name: "<user>", description: "email or id" };
const role = (description: string) => ({ flags: "--role <role>", description, default: "member" });

/** `authsvc orgs list | show | create | rename | delete | add-member | set-role | remove-member | invite | revoke-invitation | add-domain | remove-domain`. */
export const organizationCommands: CommandSpec = {
  name: "orgs",
  description: "organizations, their members and invitations (the active one is the access token's org claim)",
  after: "roles",
  commands: [
    {
      name: "list", description: "every organization: id, slug, name",
      action: (run) => run.withApp(async (app) => {
        const list = await listAllOrganizations(app.ctx);
        if (run.flags.json) return run.json({ organizations: list });
        run.out(list.length ? list.map((o) => `${o.id}  ${o.slug}  ${o.name}`).join("\n") : "no organizations");
      }),
    },
    {
      name: "show", description: "an organization with its members and open invitations", arguments: [org],
      action: (run) => run.withApp(async (app) => {
        const o = await resolveOrg(app, run.args[0]);
        const members = await listMembers(app.ctx, o.id);
        const invitations = await listInvitations(app.ctx, o.id);
        const domains = await listDomains(app.ctx, o.id);
        if (run.flags.json) return run.json({ organization: o, members, invitations, domains });
        run.out(`${o.name} (${o.slug}, ${o.id})`);
        for (const m of members) run.out(`  member      ${m.email}  ${m.role}`);
        for (const d of domains) run.out(`  domain      ${d.domain}  joins as ${d.role}`);
        for (const i of invitations) run.out(`  invitation  ${i.email}  ${i.role}  ${i.id}  until ${new Date(i.expiresAt).toISOString()}`);
      }),
    },
    {
      name: "create", description: "create an organization owned by a user", arguments: [{ name: "<name>" }],
      options: [
        { flags: "--owner <email-or-id>", description: "the user who owns it", required: true },
        { flags: "--slug <slug>", description: "its slug (default: made from the name)" },
      ],
      action: (run) => run.withApp(async (app) => {
        const owner = await app.findUser(String(run.flags.owner));
        const o = await refusals(() => createOrganization(app.ctx, { name: run.args[0], slug: run.flags.slug }, owner.id, operator));
        if (run.flags.json) return run.json({ organization: o });
        run.out(`created ${o.slug} (${o.id}), owned by ${owner.email}`);
      }),
    },
    {
      name: "rename", description: "give an organization another name (and --slug)", arguments: [org, { name: "<name>" }],
      options: [{ flags: "--slug <slug>", description: "a new slug too" }],
      action: (run) => run.withApp(async (app) => {
        const [ref, name] = run.args;
        const o = await refusals(async () => updateOrganization(app.ctx, (await resolveOrg(app, ref)).id, { name, slug: run.flags.slug }, operator));
        if (run.flags.json) return run.json({ organization: o });
        run.out(`renamed to ${o.name} (${o.slug})`);
      }),
    },
    {
      name: "delete", description: "delete an organization with its members and invitations", arguments: [org],
      options: [{ flags: "--yes", description: "confirm: members lose its claim at their next refresh" }],
      action: (run) => run.withApp(async (app) => {
        const o = await resolveOrg(app, run.args[0]);
        if (!run.flags.yes) throw new CommandError(`deleting ${o.slug} removes its ${(await listMembers(app.ctx, o.id)).length} member(s) and its invitations; add --yes to confirm`, 2);
        await refusals(() => deleteOrganization(app.ctx, o.id, operator));
        if (run.flags.json) return run.json({ deleted: o.id });
        run.out(`deleted ${o.slug}`);
      }),
    },
    {
      name: "add-member", description: "add a user to an organization", arguments: [org, user],
      options: [role("owner, admin, member or a role from `authsvc roles`")],
      action: (run) => run.withApp(async (app) => {
        const o = await resolveOrg(app, run.args[0]);
        const m = await refusals(async () => addMember(app.ctx, o.id, (await app.findUser(run.args[1])).id, String(run.flags.role), "cli"));
        if (run.flags.json) return run.json({ member: m });
        run.out(`${m.email} is ${m.role} of ${o.slug}`);
      }),
    },
    {
      name: "set-role", description: "give a member another role (the last owner keeps theirs)", arguments: [org, user, { name: "<role>" }],
      action: (run) => run.withApp(async (app) => {
        const o = await resolveOrg(app, run.args[0]);
        const m = await refusals(async () => changeMemberRole(app.ctx, o.id, operator, (await app.findUser(run.args[1])).id, run.args[2]));
        if (run.flags.json) return run.json({ member: m });
        run.out(`${m.email} is ${m.role} of ${o.slug}`);
      }),
    },
    {
      name: "remove-member", description: "remove a member (never the last owner)", arguments: [org, user],
      action: (run) => run.withApp(async (app) => {
        const o = await resolveOrg(app, run.args[0]);
        const u = await app.findUser(run.args[1]);
        await refusals(() => removeMember(app.ctx, o.id, operator, u.id));
        if (run.flags.json) return run.json({ removed: u.id });
        run.out(`removed ${u.email} from ${o.slug}`);
      }),
    },
    {
      name: "invite", description: "invite an address (the link is mailed)", arguments: [org, { name: "<email>" }],
      options: [role("the role they get on accepting")],
      action: (run) => run.withApp(async (app) => {
        const o = await resolveOrg(app, run.args[0]);
        const inv = await refusals(() => createInvitation(app.ctx, o.id, operator, { email: run.args[1], role: run.flags.role }));
        if (run.flags.json) return run.json({ invitation: inv });
        run.out(`invited ${inv.email} as ${inv.role} to ${o.slug} (invitation ${inv.id}, until ${new Date(inv.expiresAt).toISOString()})`);
      }),
    },
    {
      name: "revoke-invitation", description: "revoke an open invitation", arguments: [org, { name: "<invitation-id>" }],
      action: (run) => run.withApp(async (app) => {
        const [ref, id] = run.args;
        const o = await resolveOrg(app, ref);
        await refusals(() => revokeInvitation(app.ctx, o.id, operator, id));
        if (run.flags.json) return run.json({ revoked: id });
        run.out(`revoked invitation ${id}`);
      }),
    },
    {
      name: "add-domain", description: "vouch that the organization owns a domain (check it first): people with a verified address there may join", arguments: [org, { name: "<domain>" }],
      options: [role("the role they join with (never owner)")],
      action: (run) => run.withApp(async (app) => {
        const o = await resolveOrg(app, run.args[0]);
        const d = await refusals(() => addDomain(app.ctx, o.id, { domain: run.args[1], role: run.flags.role }, "cli"));
        if (run.flags.json) return run.json({ domain: d });
        run.out(`people with a verified address at ${d.domain} may join ${o.slug} as ${d.role}`);
      }),
    },
    {
      name: "remove-domain", description: "stop joining through a domain (its members stay)", arguments: [org, { name: "<domain>" }],
      action: (run) => run.withApp(async (app) => {
        const [ref, domain] = run.args;
        const o = await resolveOrg(app, ref);
        await refusals(() => removeDomain(app.ctx, o.id, domain, "cli"));
        if (run.flags.json) return run.json({ removed: domain });
        run.out(`no one joins ${o.slug} through ${domain} any more`);
      }),
    },
  ],
};
