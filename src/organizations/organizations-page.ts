import type { Config } from "../config/types.js";
import { hostedPage } from "../http/pages/hosted-pages.js";
import { escapeHtml, field, liveRegions } from "../http/pages/layout.js";

const b = (c: Readonly<Config>) => escapeHtml(c.websiteBasePath);

/** The path of the page (not {websiteBasePath}/organizations: with the default base paths the API answers GET there). */
export const organizationsPagePath = "/my-organizations";

/** A role field: a choice among the roles the signed-in member may hand out (filled from GET /organizations/{id}/roles). */
const roleField = (id: string, label: string) => `<div class="field">
    <label for="${id}">${label}</label>
    <select id="${id}" name="${id}" required aria-describedby="${id}-error"><option value="member">member</option></select>
    <p class="field-error" id="${id}-error"></p>
  </div>`;

/**
 * GET {websiteBasePath}/my-organizations: my organizations (role, the active one, switch), create
 * one, and for one I may manage: its members (change a role, chosen among the roles I may hand
 * out, remove) and open invitations (invite, resend, revoke). Every change is a call of my-organizations.js (served as organizations.js) to /organizations with the session.
 */
export const organizationsPage = hostedPage((c, _deps, w) => ({
  title: "My organizations",
  script: "organizations.js",
  wide: true,
  main: `<section id="view-loading" aria-labelledby="loading-title">
  <h1 id="loading-title" tabindex="-1">My organizations</h1>
  ${liveRegions}
</section>
<section id="view-signed-out" hidden aria-labelledby="signed-out-title">
  <h1 id="signed-out-title" tabindex="-1">Sign in to see your organizations</h1>
  <p><a class="button" href="${b(c)}">Sign in</a></p>
</section>
<section id="view-organizations" hidden aria-labelledby="organizations-title">
  <h1 id="organizations-title" tabindex="-1">My organizations</h1>
  <p class="aside"><a href="${b(c)}/account">My account</a></p>
  <p id="orgs-status" class="status" role="status" aria-live="polite"></p>
  <p id="orgs-error" class="error" role="alert"></p>
  <p id="orgs-empty">You are not a member of any organization yet.</p>
  <ul id="orgs" class="sessions"></ul>

  <h2>Create an organization</h2>
  <form id="create-form" method="post" novalidate>
    ${field({ id: "org-name", label: "Name", type: "text", autocomplete: "organization", empty: "Enter a name.", hint: "Its short name in addresses (the slug) is made from it." }, w)}
    <button type="submit">Create</button>
  </form>

  <div id="manage" hidden>
    <h2 id="manage-title" tabindex="-1">Members of <span id="manage-name"></span></h2>
    <p id="members-status" class="status" role="status" aria-live="polite"></p>
    <ul id="members" class="sessions"></ul>
    <div id="invitations-part" hidden>
      <h2>Invitations</h2>
      <p id="invite-status" class="status" role="status" aria-live="polite"></p>
      <form id="invite-form" method="post" novalidate>
        ${field({ id: "invite-email", label: "Email address to invite", type: "email", autocomplete: "off", empty: "Enter the address to invite." }, w)}
        ${roleField("invite-role", "Role")}
        <button type="submit">Send the invitation</button>
      </form>
      <p id="invitations-empty">No open invitations.</p>
      <ul id="invitations" class="sessions"></ul>
    </div>
  </div>
</section>`,
}));
