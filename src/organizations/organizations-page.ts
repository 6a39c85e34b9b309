import type { Config } from "../config/types.js";
import { hostedPage } from "../http/pages/hosted-pages.js";
import { escapeHtml, field, liveRegions } from "../http/pages/layout.js";

const b = (c: Readonly<Config>) => escapeHtml(c.websiteBasePath);

/** The path of the page (not {websiteBasePath}/organizations: with the default base paths the API answers GET there). */
export const organizationsPagePath = "/my-organizations";

/** A role field: a choice among the roles the signed-in member may hand out (filled from GET /organizations/{id}/roles). */
const roleField = (id: string, label: string) => `<div class="field">
    <label for="${id}">${escapeHtml(label)}</label>
    <select id="${id}" name="${id}" required aria-describedby="${id}-error"><option value="member">member</option></select>
    <p class="field-error" id="${id}-error"></p>
  </div>`;

/**
 * GET {websiteBasePath}/my-organizations: my organizations (role, the active one, switch), create
 * one, and for one I may manage: its members (change a role, chosen among the roles I may hand
 * out, remove) and open invitations (invite, resend, revoke). Every change is a call of my-organizations.js (served as organizations.js) to /organizations with the session.
 */
export const organizationsPage = hostedPage((c, _deps, w) => ({
  title: w.t("org.page.title"),
  script: "organizations.js",
  wide: true,
  main: `<section id="view-loading" aria-labelledby="loading-title">
  <h1 id="loading-title" tabindex="-1">${w.html("org.page.title")}</h1>
  ${liveRegions}
</section>
<section id="view-signed-out" hidden aria-labelledby="signed-out-title">
  <h1 id="signed-out-title" tabindex="-1">${w.html("org.page.signIn")}</h1>
  <p><a class="button" href="${b(c)}">${w.html("signIn.title")}</a></p>
</section>
<section id="view-organizations" hidden aria-labelledby="organizations-title">
  <h1 id="organizations-title" tabindex="-1">${w.html("org.page.title")}</h1>
  <p class="aside"><a href="${b(c)}/account">${w.html("org.page.account")}</a></p>
  <p id="orgs-status" class="status" role="status" aria-live="polite"></p>
  <p id="orgs-error" class="error" role="alert"></p>
  <p id="orgs-empty">${w.html("org.page.empty")}</p>
  <ul id="orgs" class="sessions"></ul>

  <h2>${w.html("org.page.create")}</h2>
  <form id="create-form" method="post" novalidate>
    ${field({ id: "org-name", label: w.t("org.page.name"), type: "text", autocomplete: "organization", empty: w.t("org.page.name.empty"), hint: w.t("org.page.name.hint") }, w)}
    <button type="submit">${w.html("org.page.createButton")}</button>
  </form>

  <div id="manage" hidden>
    <h2 id="manage-title" tabindex="-1">${w.html("org.js.membersOf", { org: `<span id="manage-name"></span>` })}</h2>
    <p id="members-status" class="status" role="status" aria-live="polite"></p>
    <ul id="members" class="sessions"></ul>
    <div id="invitations-part" hidden>
      <h2>${w.html("org.page.invitations")}</h2>
      <p id="invite-status" class="status" role="status" aria-live="polite"></p>
      <form id="invite-form" method="post" novalidate>
        ${field({ id: "invite-email", label: w.t("org.page.inviteEmail"), type: "email", autocomplete: "off", empty: w.t("org.page.inviteEmail.empty") }, w)}
        ${roleField("invite-role", w.t("org.page.role"))}
        <button type="submit">${w.html("org.page.sendInvite")}</button>
      </form>
      <p id="invitations-empty">${w.html("org.page.noInvitations")}</p>
      <ul id="invitations" class="sessions"></ul>
    </div>
  </div>
</section>`,
}));
