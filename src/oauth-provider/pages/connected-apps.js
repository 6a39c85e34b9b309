// "Connected apps" ({websiteBasePath}/connected-apps, src/oauth-provider/page.ts): the apps the
// person allowed (client name, where it returns, what it may use, since when), each with a button
// that ends the grant: the app can no longer refresh and must ask again.
import { callWithSession, describeStatus, say, showView } from "./api.js";

const list = document.getElementById("apps");

function line(label, text) {
  const p = document.createElement("p");
  const b = document.createElement("strong");
  b.textContent = `${label}: `;
  p.append(b, text);
  return p;
}

function describeAccess(app) {
  const parts = app.resources.map((r) => `${r.resource}${r.scopes.length ? ` (${r.scopes.join(", ")})` : ""}`);
  if (app.scopes.length) parts.push(`your account (${app.scopes.join(", ")})`);
  return parts.join("; ") || "nothing beyond knowing it was allowed";
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
    revoke.textContent = "Disconnect";
    revoke.setAttribute("aria-label", `Disconnect ${app.clientName}`);
    revoke.addEventListener("click", () => disconnect(app, revoke));
    li.append(h, line("Returns to", app.redirectHosts.join(", ") || "no web address"), line("May use", describeAccess(app)),
      line("Allowed on", new Date(app.grantedAt).toLocaleString()), revoke);
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
  say("status", `${app.clientName} was disconnected. It can no longer use your account unless you allow it again.`);
  await load();
}

await load();
