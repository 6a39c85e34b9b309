import { Command } from "commander";
import type { App } from "../app.js";
import { AuthError } from "../core/errors.js";
import { addDomain, listDomains, removeDomain } from "../organizations/domains.js";
import { createInvitation, listInvitations, revokeInvitation } from "../organizations/invitations.js";
import {
  addMember, changeMemberRole, createOrganization, deleteOrganization, listAllOrganizations, listMembers, removeMember, updateOrganization,
  toView, type Actor, type OrganizationView,
} from "../organizations/organizations.js";
import { findOrganization, findOrganizationBySlug } from "../organizations/store.js";
import { withApp, printJson } from "./context.js";
import { addAdminSubcommand } from "./options.js";
import { CliError, type CliIO } from "./io.js";
import { resolveUserRef } from "./user-ref.js";

const operator: Actor = { operator: "cli" };

/** The core's refusals in the terminal's terms: bad input is a usage error (exit 2), the rest exit 1. */
async function refusals<T>(work: () => Promise<T>): Promise<T> {
  try { return await work(); } catch (err) {
    if (err instanceof AuthError) throw new CliError(err.message, err.code === "BAD_INPUT" ? 2 : 1);
    throw err;
  }
}

/** An organization by id or slug. */
async function resolveOrg(app: App, ref: string): Promise<OrganizationView> {
  const o = (await findOrganization(app.store.db, ref)) ?? (await findOrganizationBySlug(app.store.db, ref));
  if (!o) throw new CliError(`no organization ${ref} (give its id or slug; authsvc orgs list shows them)`);
  return toView(o);
}

/** `authsvc orgs list | show | create | rename | delete | add-member | set-role | remove-member | invite | revoke-invitation | add-domain | remove-domain`. */
export function orgsCommand(io: CliIO): Command {
  const orgs = new Command("orgs").description("organizations, their members and invitations (the active one is the access token's org claim)");
  const sub = (name: string, desc: string) => addAdminSubcommand(orgs, name, desc);
  sub("list", "every organization: id, slug, name")
    .action(async (flags) => withApp(flags, io, async (app) => {
      const list = await listAllOrganizations(app.ctx);
      if (flags.json) return printJson(io, { organizations: list });
      io.out(list.length ? list.map((o) => `${o.id}  ${o.slug}  ${o.name}`).join("\n") : "no organizations");
    }));
  sub("show", "an organization with its members and open invitations").argument("<org>", "id or slug")
    .action(async (ref, flags) => withApp(flags, io, async (app) => {
      const o = await resolveOrg(app, ref);
      const members = await listMembers(app.ctx, o.id);
      const invitations = await listInvitations(app.ctx, o.id);
      const domains = await listDomains(app.ctx, o.id);
      if (flags.json) return printJson(io, { organization: o, members, invitations, domains });
      io.out(`${o.name} (${o.slug}, ${o.id})`);
      for (const m of members) io.out(`  member      ${m.email}  ${m.role}`);
      for (const d of domains) io.out(`  domain      ${d.domain}  joins as ${d.role}`);
      for (const i of invitations) io.out(`  invitation  ${i.email}  ${i.role}  ${i.id}  until ${new Date(i.expiresAt).toISOString()}`);
    }));
  sub("create", "create an organization owned by a user").argument("<name>")
    .requiredOption("--owner <email-or-id>", "the user who owns it")
    .option("--slug <slug>", "its slug (default: made from the name)")
    .action(async (name, flags) => withApp(flags, io, async (app) => {
      const owner = await resolveUserRef(app, flags.owner);
      const o = await refusals(() => createOrganization(app.ctx, { name, slug: flags.slug }, owner.id, operator));
      if (flags.json) return printJson(io, { organization: o });
      io.out(`created ${o.slug} (${o.id}), owned by ${owner.email}`);
    }));
  sub("rename", "give an organization another name (and --slug)").argument("<org>", "id or slug").argument("<name>")
    .option("--slug <slug>", "a new slug too")
    .action(async (ref, name, flags) => withApp(flags, io, async (app) => {
      const o = await refusals(async () => updateOrganization(app.ctx, (await resolveOrg(app, ref)).id, { name, slug: flags.slug }, operator));
      if (flags.json) return printJson(io, { organization: o });
      io.out(`renamed to ${o.name} (${o.slug})`);
    }));
  sub("delete", "delete an organization with its members and invitations").argument("<org>", "id or slug")
    .option("--yes", "confirm: members lose its claim at their next refresh")
    .action(async (ref, flags) => withApp(flags, io, async (app) => {
      const o = await resolveOrg(app, ref);
      if (!flags.yes) throw new CliError(`deleting ${o.slug} removes its ${(await listMembers(app.ctx, o.id)).length} member(s) and its invitations; add --yes to confirm`, 2);
      await refusals(() => deleteOrganization(app.ctx, o.id, operator));
      if (flags.json) return printJson(io, { deleted: o.id });
      io.out(`deleted ${o.slug}`);
    }));
  sub("add-member", "add a user to an organization").argument("<org>", "id or slug").argument("<user>", "email or id")
    .option("--role <role>", "owner, admin, member or a role from `authsvc roles`", "member")
    .action(async (ref, user, flags) => withApp(flags, io, async (app) => {
      const o = await resolveOrg(app, ref);
      const m = await refusals(async () => addMember(app.ctx, o.id, (await resolveUserRef(app, user)).id, flags.role, "cli"));
      if (flags.json) return printJson(io, { member: m });
      io.out(`${m.email} is ${m.role} of ${o.slug}`);
    }));
  sub("set-role", "give a member another role (the last owner keeps theirs)").argument("<org>", "id or slug").argument("<user>", "email or id").argument("<role>")
    .action(async (ref, user, role, flags) => withApp(flags, io, async (app) => {
      const o = await resolveOrg(app, ref);
      const m = await refusals(async () => changeMemberRole(app.ctx, o.id, operator, (await resolveUserRef(app, user)).id, role));
      if (flags.json) return printJson(io, { member: m });
      io.out(`${m.email} is ${m.role} of ${o.slug}`);
    }));
  sub("remove-member", "remove a member (never the last owner)").argument("<org>", "id or slug").argument("<user>", "email or id")
    .action(async (ref, user, flags) => withApp(flags, io, async (app) => {
      const o = await resolveOrg(app, ref);
      const u = await resolveUserRef(app, user);
      await refusals(() => removeMember(app.ctx, o.id, operator, u.id));
      if (flags.json) return printJson(io, { removed: u.id });
      io.out(`removed ${u.email} from ${o.slug}`);
    }));
  sub("invite", "invite an address (the link is mailed)").argument("<org>", "id or slug").argument("<email>")
    .option("--role <role>", "the role they get on accepting", "member")
    .action(async (ref, email, flags) => withApp(flags, io, async (app) => {
      const o = await resolveOrg(app, ref);
      const inv = await refusals(() => createInvitation(app.ctx, o.id, operator, { email, role: flags.role }));
      if (flags.json) return printJson(io, { invitation: inv });
      io.out(`invited ${inv.email} as ${inv.role} to ${o.slug} (invitation ${inv.id}, until ${new Date(inv.expiresAt).toISOString()})`);
    }));
  sub("revoke-invitation", "revoke an open invitation").argument("<org>", "id or slug").argument("<invitation-id>")
    .action(async (ref, id, flags) => withApp(flags, io, async (app) => {
      const o = await resolveOrg(app, ref);
      await refusals(() => revokeInvitation(app.ctx, o.id, operator, id));
      if (flags.json) return printJson(io, { revoked: id });
      io.out(`revoked invitation ${id}`);
    }));
  sub("add-domain", "vouch that the organization owns a domain (check it first): people with a verified address there may join").argument("<org>", "id or slug").argument("<domain>")
    .option("--role <role>", "the role they join with (never owner)", "member")
    .action(async (ref, domain, flags) => withApp(flags, io, async (app) => {
      const o = await resolveOrg(app, ref);
      const d = await refusals(() => addDomain(app.ctx, o.id, { domain, role: flags.role }, "cli"));
      if (flags.json) return printJson(io, { domain: d });
      io.out(`people with a verified address at ${d.domain} may join ${o.slug} as ${d.role}`);
    }));
  sub("remove-domain", "stop joining through a domain (its members stay)").argument("<org>", "id or slug").argument("<domain>")
    .action(async (ref, domain, flags) => withApp(flags, io, async (app) => {
      const o = await resolveOrg(app, ref);
      await refusals(() => removeDomain(app.ctx, o.id, domain, "cli"));
      if (flags.json) return printJson(io, { removed: domain });
      io.out(`no one joins ${o.slug} through ${domain} any more`);
    }));
  return orgs;
}
