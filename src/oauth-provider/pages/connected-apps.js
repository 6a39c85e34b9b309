// "Connected apps" ({websiteBasePath}/connected-apps, src/oauth-provider/page.ts): the apps the
// person allowed (client name, where it returns, what it may use, since when), each with a button
// that ends the grant: the app can no longer refresh and must ask again.
import { callWithSession, describeStatus, say, showView, words } from "./api.js";

const list = document.getElementById("apps");

/** A labelled line; `label` is the id of its words (which end with their colon). */
function line(label, text) {
  const p = document.createElement("p");
  const b = document.createElement("strong");
  b.textContent = `${words(label)} `;
  p.append(b, text);
  return p;
}

function describeAccess(app) {
  const parts = app.resources.map((r) => `${r.resource}${r.scopes.length ? ` (${r.scopes.join(", ")})` : ""}`);
  if (app.scopes.length) parts.push(words("oauth.js.yourAccount", { scopes: app.scopes.join(", ") }));
  return parts.join("; ") || words("oauth.js.nothing");
}

async function load() {
  const r = await callWithSession("GET", "/account/connected-apps", undefined, "session");
  if (r.status === 401) return showView("view-signed-out");
  if (r.status !== 200) return say("form-error", r.message);
  list.replaceChildren(...r.json.apps.map((app) => {
    const li = document.createElement("li");
    li.className = "app";
    li.dataset.grantId = app.grantId;
    const h = document.createElement("h2");
    h.textContent = app.clientName;
    const revoke = document.createElement("button");
    revoke.type = "button";
    revoke.className = "secondary";
    revoke.textContent = words("oauth.js.disconnect");
    revoke.setAttribute("aria-label", words("oauth.js.disconnectApp", { app: app.clientName }));
    revoke.addEventListener("click", () => disconnect(app, revoke));
    li.append(h, line("oauth.js.returnsTo", app.redirectHosts.join(", ") || words("oauth.js.noWebAddress")), line("oauth.js.mayUse", describeAccess(app)),
      line("oauth.js.allowedOn", new Date(app.grantedAt).toLocaleString(document.documentElement.lang)), revoke);
    return li;
  }));
  document.getElementById("none").hidden = r.json.apps.length > 0;
  showView("view-list");
}

async function disconnect(app, button) {
  button.disabled = true;
  say("form-error", "");
  const r = await callWithSession("POST", "/account/connected-apps/revoke", { grantId: app.grantId }, "session");
  button.disabled = false;
  if (r.status !== 200) return say("form-error", r.message);
  if (r.json.status !== "OK") return say("form-error", describeStatus(r.json));
  say("status", words("oauth.js.disconnected", { app: app.clientName }));
  await load();
}

await load();
