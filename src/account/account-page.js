// "My account" (src/account/page.ts). Signed in: sessions, logins, email, deletion, each a POST
// to /account/... with the session (refreshed once on a 401), and the rooms' parts. Opened from a
// mail (a token taken out of the address bar by token.js): confirms an email change, or keeps an
// account (?action=cancel-deletion).
import { call, callWithSession, checkRequired, say, setBusy, showFieldErrors, showView, words } from "./api.js";

const token = window.authsvcToken;
const action = new URLSearchParams(window.location.search).get("action");
// Each room's part of the page is its module (data-account-parts, Room.accountPage): mountAccount(kit)
// submits its forms, emailChangeProof() gives what an address change is proven by (a password).
const names = (document.body.dataset.accountParts || "").split(",").filter(Boolean);
const parts = await Promise.all(names.map((name) => import(`./${name}`)));

// Dates and times in the page's language.
const lang = document.documentElement.lang;

function describe(s) {
  const when = new Date(s.lastUsedAt).toLocaleString(lang);
  const device = s.userAgent || words("account.js.unknownDevice");
  const text = words("account.js.lastUsed", { where: s.ip ? words("account.js.fromIp", { device, ip: s.ip }) : device, when });
  const said = s.current ? words("account.js.thisDevice", { text }) : text;
  // A support session (an admin acting as me) says by whom.
  return s.supportBy ? `${words("account.js.supportSession", { admin: s.supportBy })}: ${said}` : said;
}

async function loadSessions() {
  const r = await callWithSession("GET", "/account/sessions", undefined, "session");
  if (r.status === 401) return false;
  if (r.status !== 200) { say("form-error", r.message); return true; }
  const list = document.getElementById("sessions");
  list.replaceChildren(...r.json.sessions.map((s) => {
    const li = document.createElement("li");
    li.dataset.sessionHandle = s.sessionHandle;
    const text = document.createElement("span");
    text.textContent = describe(s);
    li.append(text);
    if (!s.current) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "secondary revoke";
      b.textContent = words("account.js.signOut");
      b.addEventListener("click", () => revoke({ sessionHandle: s.sessionHandle }));
      li.append(" ", b);
    }
    return li;
  }));
  return true;
}

async function revoke(what) {
  const r = await callWithSession("POST", "/account/sessions/revoke", what, "session");
  if (r.status !== 200) return say("sessions-status", r.message);
  say("sessions-status", words("account.js.signedOut", { count: r.json.revoked }));
  await loadSessions();
}

// Each kind of login's name, from its method (LoginKind.accountLabel): a {field} is the login's own ({provider}, {passkeys}).
const LABELS = JSON.parse(document.body.dataset.loginLabels || "{}");
const label = (l) => (LABELS[l.method] ?? l.method).replace(/\{(\w+)\}/g, (slot, field) => (field in l ? String(l[field]) : slot));
// Why a login was not removed, by status: the ids of the page's words.
const REMOVE_REFUSED = {
  WRONG_CREDENTIALS_ERROR: "account.js.wrongPassword",
  REAUTHENTICATION_REQUIRED: "account.js.reauthRemove",
  LAST_LOGIN_METHOD: "account.js.lastLogin",
  PRIMARY_LOGIN_METHOD: "account.js.primaryLogin",
  CURRENT_LOGIN_METHOD: "account.js.currentLogin",
  UNKNOWN_LOGIN: "account.js.unknownLogin",
};

/** "How you sign in": each login method of mine, with a Remove button (re-authenticated by the password field). */
async function loadLogins() {
  const r = await callWithSession("GET", "/account/logins", undefined, "session");
  if (r.status !== 200) return;
  document.getElementById("logins").replaceChildren(...r.json.logins.map((l) => {
    const li = document.createElement("li");
    const text = words("account.js.loginLine", { label: label(l), email: l.email, date: new Date(l.addedAt).toLocaleDateString(lang) });
    li.append(l.current ? words("account.js.thisSession", { text }) : text);
    if (r.json.logins.length > 1 && !l.primary && !l.current) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "secondary remove-login";
      b.textContent = words("account.js.remove");
      b.addEventListener("click", () => removeLogin(l.recipeUserId));
      li.append(" ", b);
    }
    return li;
  }));
}

async function removeLogin(recipeUserId) {
  say("logins-error", "");
  const password = value("logins-password");
  const r = await callWithSession("POST", "/account/logins/remove", password ? { recipeUserId, password } : { recipeUserId }, "session");
  if (r.status !== 200) return say("logins-error", r.message);
  if (r.json.status !== "OK") return say("logins-error", REMOVE_REFUSED[r.json.status] ? words(REMOVE_REFUSED[r.json.status]) : r.json.status);
  say("logins-status", words("account.js.loginRemoved"));
  await loadLogins();
}

/** A form's submit: required fields, busy while in flight, then `done` with the answer. */
function onSubmit(id, errorId, send, done) {
  const form = document.getElementById(id);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    say(errorId, "");
    if (showFieldErrors(form, checkRequired(form))) return;
    setBusy(form, true);
    const r = await send();
    setBusy(form, false);
    if (r.status !== 200) return say(errorId, r.message);
    done(r.json, form);
  });
}

const value = (id) => document.getElementById(id).value;

for (const p of parts) if (p.mountAccount) p.mountAccount({ onSubmit, sessionsChanged: () => void loadSessions() });

/** What the rooms add to an address change to prove it is the person. */
const emailChangeProof = () => Object.assign({}, ...parts.map((p) => (p.emailChangeProof ? p.emailChangeProof() : {})));

onSubmit("email-form", "email-error", () => callWithSession("POST", "/account/email", { email: value("new-email").trim(), ...emailChangeProof() }, "session"), (json, form) => {
  if (json.status === "FIELD_ERROR") return void showFieldErrors(form, json.formFields.map((f) => ({ ...f, id: "new-email" })));
  if (json.status !== "OK") return say("email-error", words(json.status === "NO_PASSWORD_LOGIN" ? "account.js.addressFromProvider" : "account.js.wrongPassword"));
  const to = value("new-email").trim();
  form.reset();
  say("email-status", words("account.js.linkSent", { email: to }));
});

onSubmit("locale-form", "locale-error", () => callWithSession("POST", "/account/locale", { locale: value("mail-locale") }, "session"), () => say("locale-status", words("account.js.localeSaved")));

document.getElementById("delete-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  say("delete-error", "");
  const password = value("delete-password");
  const r = await callWithSession("POST", "/account/delete", password ? { password } : {}, "session");
  if (r.status !== 200) return say("delete-error", r.message);
  if (r.json.status === "WRONG_CREDENTIALS_ERROR") return say("delete-error", words("account.js.wrongPassword"));
  if (r.json.status === "REAUTHENTICATION_REQUIRED") return say("delete-error", words("account.js.reauthDelete"));
  document.getElementById("delete-at").textContent = r.json.deleted ? words("account.js.now") : new Date(r.json.deleteAt).toLocaleString(lang);
  showView("view-deleted");
});

document.getElementById("revoke-others").addEventListener("click", () => revoke({ others: true }));

async function useToken() {
  const cancel = action === "cancel-deletion";
  const r = await call("POST", cancel ? "/account/delete/cancel" : "/account/email/confirm", { token }, "session");
  if (r.status === 200 && r.json.status === "OK") {
    document.getElementById("token-done-text").textContent = cancel ? words("account.js.kept") : words("account.js.emailNow", { email: r.json.email });
    return showView("view-token-done");
  }
  if (r.status === 200 && r.json.status === "EMAIL_ALREADY_USED_ERROR") document.getElementById("token-invalid-text").textContent = words("account.js.emailTaken");
  else if (r.status !== 200) document.getElementById("token-invalid-text").textContent = r.message;
  showView("view-token-invalid");
}

/** Whose account this is (GET /account/me); false when nobody is signed in. */
async function showWho() {
  const r = await callWithSession("GET", "/account/me", undefined, "session");
  if (r.status === 200) {
    document.getElementById("account-email").textContent = r.json.user.email;
    document.getElementById("mail-locale").value = r.json.user.locale;
  }
  return r.status !== 401;
}

/** Other rooms' links that asked for a count (e.g. "My organizations (2)"): a GET each, the array's length. */
async function countLinks() {
  for (const a of document.querySelectorAll("#account-links a[data-count-path]")) {
    const r = await callWithSession("GET", a.dataset.countPath, undefined, "session");
    const list = r.status === 200 && r.json ? r.json[a.dataset.countField] : undefined;
    if (Array.isArray(list)) a.append(` (${list.length})`);
  }
}

if (token) await useToken();
else if ((await showWho()) && (await loadSessions())) { showView("view-account"); void loadLogins(); void countLinks(); }
else showView("view-signed-out");
