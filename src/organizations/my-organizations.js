// "My organizations" (src/organizations/organizations-page.ts, my-organizations.js): my organizations, switch the active
// one (the token is re-issued), create one, and manage members and invitations where my role
// allows. Every call goes to /organizations with the session (refreshed once on a 401).
import { callWithSession, checkRequired, say, setBusy, showFieldErrors, showView, words } from "./api.js";

const api = (method, path, body) => callWithSession(method, `/organizations${path}`, body, "session");
const el = (id) => document.getElementById(id);
let managed = null; // the organization whose members are shown: {id, name, permissions}

/**
 * A refusal in the page's words: roles, permissions, the last owner; else the server's own
 * sentence. The API's messages (English, for the SDKs and scripts) are read, never shown as such.
 */
function why(r) {
  const m = (r.json && r.json.message) || "";
  const role = /^no such role: (.*)$/.exec(m);
  if (role) return words("org.js.noRole", { role: role[1] });
  const platform = /^the role (.*) is not one organizations may hand out/.exec(m);
  if (platform) return words("org.js.platformRole", { role: platform[1] });
  if (r.status === 403) {
    if (m.startsWith("You cannot act on a member")) return words("org.js.notAbove");
    if (m.startsWith("You cannot invite")) return words("org.js.inviteAbove");
    if (m.startsWith("You cannot")) return words("org.js.invitationAbove");
    return words("org.js.forbidden");
  }
  if (m.startsWith("An organization always keeps one owner")) return words("org.js.lastOwner");
  if (r.status === 404) return words("org.js.gone");
  return r.message;
}

function item(text, ...controls) {
  const li = document.createElement("li");
  const span = document.createElement("span");
  span.textContent = text;
  const actions = document.createElement("div");
  actions.className = "actions";
  actions.append(...controls);
  li.append(span, actions);
  return li;
}

function button(label, cls, onClick, name) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  b.textContent = label;
  if (name) b.setAttribute("aria-label", name);
  b.addEventListener("click", onClick);
  return b;
}

async function loadOrganizations() {
  const r = await api("GET", "");
  if (r.status === 401) return false;
  if (r.status !== 200) { say("orgs-error", r.message); return true; }
  const orgs = r.json.organizations;
  el("orgs-empty").hidden = orgs.length > 0;
  el("orgs").replaceChildren(...orgs.map((o) => {
    const controls = [];
    if (o.active) {
      const badge = document.createElement("span");
      badge.className = "badge valid active-org";
      badge.textContent = words("org.js.active");
      controls.push(badge);
    } else controls.push(button(words("org.js.makeActive"), "secondary switch-org", () => switchTo(o), words("org.js.makeActiveName", { org: o.name })));
    if (o.permissions.includes("members:read")) controls.push(button(words("org.js.members"), "secondary manage-org", () => manage(o), words("org.js.membersOf", { org: o.name })));
    const li = item(words("org.js.orgLine", { org: o.name, slug: o.slug, role: o.role }), ...controls);
    li.dataset.organizationId = o.id;
    return li;
  }));
  if (managed) {
    const again = orgs.find((o) => o.id === managed.id);
    if (again) await manage(again, false); else el("manage").hidden = true;
  }
  return true;
}

async function switchTo(o) {
  say("orgs-error", "");
  const r = await api("PUT", "/active", { organizationId: o.id });
  if (r.status !== 200) return say("orgs-error", why(r));
  say("orgs-status", words("org.js.nowActive", { org: o.name }));
  await loadOrganizations();
}

/** Shows an organization's members and (with invitations:read) its open invitations. */
async function manage(o, focus = true) {
  managed = o;
  el("manage-name").textContent = o.name;
  el("manage").hidden = false;
  const can = (p) => o.permissions.includes(p);
  // The role choices (a member's new role, an invitation's): the roles I may hand out here.
  const roles = can("members:update") || can("invitations:create") ? (await rolesToHandOut(o)) ?? [] : [];
  const r = await api("GET", `/${o.id}/members`);
  if (r.status !== 200) return say("members-status", why(r));
  el("members").replaceChildren(...r.json.members.map((m, i) => memberItem(o, m, i, can, roles)));
  el("invitations-part").hidden = !can("invitations:read");
  if (can("invitations:read")) await loadInvitations();
  el("invite-form").hidden = !can("invitations:create");
  if (can("invitations:create")) el("invite-role").replaceChildren(...roleOptions(roles, "member"));
  if (focus) el("manage-title").focus();
}

/** GET /organizations/{id}/roles: the roles I may hand out here, or undefined (the reason is shown; the members still are). */
async function rolesToHandOut(o) {
  const r = await api("GET", `/${o.id}/roles`);
  if (r.status === 200) return r.json.roles;
  say("members-status", why(r));
  return undefined;
}

/** A role choice's options, `chosen` selected. */
const roleOptions = (roles, chosen) => roles.map((name) => Object.assign(document.createElement("option"), { value: name, textContent: name, selected: name === chosen }));

function memberItem(o, m, i, can, roles) {
  const controls = [];
  const error = document.createElement("p");
  error.className = "field-error";
  error.id = `member-${i}-error`;
  error.setAttribute("role", "alert");
  if (can("members:update")) {
    const label = document.createElement("label");
    label.htmlFor = `member-${i}-role`;
    label.className = "sr-only";
    label.textContent = words("org.js.roleOf", { email: m.email });
    // A choice among the roles I may hand out; their role now is shown (chosen) even when it is not one of them.
    const input = document.createElement("select");
    input.id = label.htmlFor;
    input.replaceChildren(...roleOptions(roles.includes(m.role) ? roles : [m.role, ...roles], m.role));
    input.setAttribute("aria-describedby", error.id);
    input.className = "member-role";
    controls.push(label, input, button(words("org.js.changeRole"), "secondary change-role", async () => {
      error.textContent = "";
      const res = await api("PUT", `/${o.id}/members/${encodeURIComponent(m.userId)}`, { role: input.value });
      if (res.status !== 200) { input.setAttribute("aria-invalid", "true"); error.textContent = why(res); return input.focus(); }
      say("members-status", words("org.js.nowRole", { email: m.email, role: res.json.member.role }));
      await loadOrganizations();
    }, words("org.js.changeRoleOf", { email: m.email })));
  }
  if (can("members:remove")) controls.push(button(words("org.js.remove"), "secondary remove-member", async () => {
    error.textContent = "";
    const res = await api("POST", `/${o.id}/members/${encodeURIComponent(m.userId)}/remove`, {});
    if (res.status !== 200) { error.textContent = why(res); return; }
    say("members-status", words("org.js.removed", { email: m.email }));
    await loadOrganizations();
  }, words("org.js.removeName", { email: m.email })));
  const li = item(words("org.js.memberLine", { email: m.email, role: m.role }), ...controls);
  li.append(error);
  li.dataset.email = m.email;
  return li;
}

async function loadInvitations() {
  const o = managed;
  const r = await api("GET", `/${o.id}/invitations`);
  if (r.status !== 200) return say("invite-status", why(r));
  const list = r.json.invitations;
  el("invitations-empty").hidden = list.length > 0;
  el("invitations").replaceChildren(...list.map((inv, i) => {
    const error = document.createElement("p");
    error.className = "field-error";
    error.id = `invitation-${i}-error`;
    error.setAttribute("role", "alert");
    const act = (what, done) => async () => {
      error.textContent = "";
      const res = await api("POST", `/${o.id}/invitations/${encodeURIComponent(inv.id)}/${what}`, {});
      if (res.status !== 200) { error.textContent = why(res); return; }
      say("invite-status", done);
      await loadInvitations();
    };
    const controls = [];
    const to = { email: inv.email };
    if (o.permissions.includes("invitations:create")) controls.push(button(words("org.js.resend"), "secondary resend-invitation", act("resend", words("org.js.resent", to)), words("org.js.resendName", to)));
    if (o.permissions.includes("invitations:revoke")) controls.push(button(words("org.js.revoke"), "secondary revoke-invitation", act("revoke", words("org.js.revoked", to)), words("org.js.revokeName", to)));
    const date = new Date(inv.expiresAt).toLocaleDateString(document.documentElement.lang);
    const li = item(words("org.js.invitationLine", { email: inv.email, role: inv.role, date }), ...controls);
    li.append(error);
    li.dataset.email = inv.email;
    return li;
  }));
}

/** A form's submit: required fields, busy while in flight; `send` answers, `done` shows the result. */
function onSubmit(id, send, fieldOf, done) {
  const form = el(id);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (showFieldErrors(form, checkRequired(form))) return;
    setBusy(form, true);
    const r = await send();
    setBusy(form, false);
    if (r.status !== 200) return void showFieldErrors(form, [{ id: fieldOf(r), error: why(r) }]);
    form.reset();
    await done(r.json);
  });
}

onSubmit("create-form", () => api("POST", "", { name: el("org-name").value.trim() }), () => "org-name", async (json) => {
  say("orgs-status", words("org.js.created", { org: json.organization.name, slug: json.organization.slug }));
  await loadOrganizations();
});

onSubmit("invite-form", () => api("POST", `/${managed.id}/invitations`, { email: el("invite-email").value.trim(), role: el("invite-role").value }),
  (r) => (/address|email/i.test((r.json && r.json.message) || "") ? "invite-email" : "invite-role"), async (json) => {
    say("invite-status", words("org.js.invited", { email: json.invitation.email, role: json.invitation.role }));
    await loadInvitations();
  });

if (await loadOrganizations()) showView("view-organizations");
else showView("view-signed-out");
