import { AuthError } from "../../core/errors.js";
import { listDomains } from "../../organizations/domains.js";
import { listInvitations } from "../../organizations/invitations.js";
import { permissionsOfRole } from "../../organizations/org-roles.js";
import { getOrganization, listAllOrganizations, listMembers } from "../../organizations/organizations.js";
import { launchCommand } from "../../util/launch-command.js";
import { DASHBOARD_PATH, escapeHtml, formatTime, type DashboardRequest, type DashboardResult } from "../kit.js";
import { pageOrRefusal, tableRow, tableWrap } from "../ops/parts.js";

export const ORGANIZATIONS_PATH = `${DASHBOARD_PATH}/organizations`;
const orgPath = (id: string) => `${ORGANIZATIONS_PATH}/${encodeURIComponent(id)}`;
const personLink = (userId: string, text: string) => `<a href="${DASHBOARD_PATH}/users/${encodeURIComponent(userId)}">${escapeHtml(text || userId)}</a>`;

/** GET /admin/organizations: every organization (oldest first), each linked to its page. */
export async function showOrganizations(r: DashboardRequest): Promise<DashboardResult> {
  return pageOrRefusal(r, { title: "Organizations", section: ORGANIZATIONS_PATH }, async () => {
    const list = await listAllOrganizations(r.ctx, 500);
    const rows = list.map((o) => tableRow([`<a href="${orgPath(o.id)}">${escapeHtml(o.name)}</a>`, `<span class="mono">${escapeHtml(o.slug)}</span>`, formatTime(o.createdAt)]));
    return `<section class="panel" aria-labelledby="orgs"><h2 id="orgs">Organizations</h2>
${tableWrap("Organizations, oldest first", ["Name", "Slug", "Created"], rows, { html: `No organizations yet. People create them in the app, or you with <code>${escapeHtml(launchCommand())} orgs create</code> (see docs/organizations.md).` })}
</section>`;
  });
}

/**
 * GET /admin/organizations/:id: the organization's members with their role, its open invitations,
 * the domains it proved, and what each role in use may do. Changes go through the admin API and
 * `authsvc orgs` (the same core functions).
 */
export async function showOrganization(r: DashboardRequest): Promise<DashboardResult> {
  const id = r.params.id ?? "";
  return pageOrRefusal(r, { title: "Organization", section: ORGANIZATIONS_PATH }, async () => {
    const o = await getOrganization(r.ctx, id);
    if (!o) throw new AuthError("NOT_FOUND", "No such organization");
    const [members, invitations, domains] = await Promise.all([listMembers(r.ctx, id), listInvitations(r.ctx, id), listDomains(r.ctx, id)]);
    const roles = [...new Set([...members.map((m) => m.role), ...invitations.map((i) => i.role), ...domains.map((d) => d.role)])].sort();
    const perms = await Promise.all(roles.map(async (role) => [role, (await permissionsOfRole(r.ctx.store.db, role)) ?? []] as const));
    const meta = Object.keys(o.metadata).length ? `<pre class="mono">${escapeHtml(JSON.stringify(o.metadata, null, 2))}</pre>` : `<p class="muted">No metadata.</p>`;
    return `<section class="panel" aria-labelledby="org-name"><h2 id="org-name">${escapeHtml(o.name)}</h2>
<dl><dt>Slug</dt><dd class="mono">${escapeHtml(o.slug)}</dd><dt>Id</dt><dd class="mono">${escapeHtml(o.id)}</dd><dt>Created</dt><dd>${formatTime(o.createdAt)}</dd></dl>
${meta}
<p class="muted">Change it with <code>${escapeHtml(launchCommand())} orgs</code> or the admin API (docs/organizations.md).</p>
</section>
<section class="panel" aria-labelledby="members"><h2 id="members">Members (${members.length})</h2>
${tableWrap(`Members of ${o.name}`, ["Person", "Role", "Joined"], members.map((m) => tableRow([personLink(m.userId, m.email), escapeHtml(m.role), formatTime(m.joinedAt)])), "No members.")}
</section>
<section class="panel" aria-labelledby="invitations"><h2 id="invitations">Open invitations (${invitations.length})</h2>
${tableWrap(`Open invitations to ${o.name}`, ["Address", "Role", "Sent", "Expires"], invitations.map((i) => tableRow([escapeHtml(i.email), escapeHtml(i.role), formatTime(i.createdAt), formatTime(i.expiresAt)])), "No open invitations.")}
</section>
<section class="panel" aria-labelledby="domains"><h2 id="domains">Proven domains</h2>
${tableWrap(`Domains of ${o.name}`, ["Domain", "Joins as", "Vouched by", "Added"], domains.map((d) => tableRow([`<span class="mono">${escapeHtml(d.domain)}</span>`, escapeHtml(d.role), escapeHtml(d.verifiedBy), formatTime(d.createdAt)])), "No domains: people join by invitation only.")}
</section>
<section class="panel" aria-labelledby="roles"><h2 id="roles">Roles in use</h2>
${tableWrap(`Roles in ${o.name} and their permissions`, ["Role", "Permissions"], perms.map(([role, p]) => tableRow([escapeHtml(role), escapeHtml(p.join(", ") || "none")])), "No roles in use.")}
</section>`;
  });
}
