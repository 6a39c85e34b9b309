import { AuthError } from "../core/errors.js";
import type { DashboardSectionKit, DashboardSectionPart } from "../http/dashboard-sections.js";
import { launchCommand } from "../util/launch-command.js";
import { listDomains } from "./domains.js";
import { listInvitations } from "./invitations.js";
import { permissionsOfRole } from "./org-roles.js";
import { getOrganization, listAllOrganizations, listMembers } from "./organizations.js";

const orgPath = (kit: DashboardSectionKit, id: string) => kit.href(`organizations/${encodeURIComponent(id)}`);
const personLink = (kit: DashboardSectionKit, userId: string, text: string) => `<a href="${kit.href(`users/${encodeURIComponent(userId)}`)}">${kit.escape(text || userId)}</a>`;

/**
 * The organizations' section of the admin dashboard (/admin/organizations): every organization
 * (oldest first), each linked to its page. Changes go through the admin API and `authsvc orgs`.
 */
export const organizationsDashboard: DashboardSectionPart = {
  path: "organizations",
  label: "Organizations",
  after: "users",
  pages: [
    {
      path: "",
      title: "Organizations",
      render: async (ctx, _params, kit) => {
        const list = await listAllOrganizations(ctx, 500);
        const rows = list.map((o) => kit.row([`<a href="${orgPath(kit, o.id)}">${kit.escape(o.name)}</a>`, `<span class="mono">${kit.escape(o.slug)}</span>`, kit.time(o.createdAt)]));
        return `<section class="panel" aria-labelledby="orgs"><h2 id="orgs">Organizations</h2>
${kit.table("Organizations, oldest first", ["Name", "Slug", "Created"], rows, { html: `No organizations yet. People create them in the app, or you with <code>${kit.escape(launchCommand())} orgs create</code> (see docs/organizations.md).` })}
</section>`;
      },
    },
    {
      // One organization: its members with their role, its open invitations, the domains it proved, and what each role in use may do.
      path: "/:id",
      title: "Organization",
      render: async (ctx, params, kit) => {
        const id = params.id ?? "";
        const o = await getOrganization(ctx, id);
        if (!o) throw new AuthError("NOT_FOUND", "No such organization");
        const [members, invitations, domains] = await Promise.all([listMembers(ctx, id), listInvitations(ctx, id), listDomains(ctx, id)]);
        const roles = [...new Set([...members.map((m) => m.role), ...invitations.map((i) => i.role), ...domains.map((d) => d.role)])].sort();
        const perms = await Promise.all(roles.map(async (role) => [role, (await permissionsOfRole(ctx.store.db, role)) ?? []] as const));
        const { escape, row, table, time } = kit;
        const meta = Object.keys(o.metadata).length ? `<pre class="mono">${escape(JSON.stringify(o.metadata, null, 2))}</pre>` : `<p class="muted">No metadata.</p>`;
        return `<section class="panel" aria-labelledby="org-name"><h2 id="org-name">${escape(o.name)}</h2>
<dl><dt>Slug</dt><dd class="mono">${escape(o.slug)}</dd><dt>Id</dt><dd class="mono">${escape(o.id)}</dd><dt>Created</dt><dd>${time(o.createdAt)}</dd></dl>
${meta}
<p class="muted">Change it with <code>${escape(launchCommand())} orgs</code> or the admin API (docs/organizations.md).</p>
</section>
<section class="panel" aria-labelledby="members"><h2 id="members">Members (${members.length})</h2>
${table(`Members of ${o.name}`, ["Person", "Role", "Joined"], members.map((m) => row([personLink(kit, m.userId, m.email), escape(m.role), time(m.joinedAt)])), "No members.")}
</section>
<section class="panel" aria-labelledby="invitations"><h2 id="invitations">Open invitations (${invitations.length})</h2>
${table(`Open invitations to ${o.name}`, ["Address", "Role", "Sent", "Expires"], invitations.map((i) => row([escape(i.email), escape(i.role), time(i.createdAt), time(i.expiresAt)])), "No open invitations.")}
</section>
<section class="panel" aria-labelledby="domains"><h2 id="domains">Proven domains</h2>
${table(`Domains of ${o.name}`, ["Domain", "Joins as", "Vouched by", "Added"], domains.map((d) => row([`<span class="mono">${escape(d.domain)}</span>`, escape(d.role), escape(d.verifiedBy), time(d.createdAt)])), "No domains: people join by invitation only.")}
</section>
<section class="panel" aria-labelledby="roles"><h2 id="roles">Roles in use</h2>
${table(`Roles in ${o.name} and their permissions`, ["Role", "Permissions"], perms.map(([role, p]) => row([escape(role), escape(p.join(", ") || "none")])), "No roles in use.")}
</section>`;
      },
    },
  ],
};
