// The passkeys page ({websiteBasePath}/passkeys): the signed-in user's passkeys, add one, remove
// one (the API refuses the last way in and says so).
import { callWithSession, describeStatus, say, showView, words } from "./api.js";
import { sayRefusal } from "./refusal.js";
import { describePasskeyStatus, passkeysSupported, registerPasskey } from "./passkeys.js";

const list = document.getElementById("passkey-list");
const add = document.getElementById("add-passkey");
let state = null;

/** A date and time in the page's language (its <html lang>), not the browser's. */
const when = (at) => new Date(at).toLocaleString(document.documentElement.lang || undefined);

async function load() {
  const r = await callWithSession("GET", "/webauthn/credential/list", undefined, "webauthn");
  if (r.status === 401) return showView("view-signed-out");
  if (r.status !== 200) return say("form-error", r.message);
  state = r.json;
  list.textContent = "";
  for (const c of state.credentials) {
    const li = document.createElement("li");
    const text = document.createElement("span");
    const added = when(c.createdAt);
    text.textContent = c.lastUsedAt ? words("passkey.js.added", { added, used: when(c.lastUsedAt) }) : words("passkey.js.addedUnused", { added });
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "secondary";
    remove.textContent = words("passkey.js.remove");
    remove.setAttribute("aria-label", words("passkey.js.removeLabel", { added }));
    remove.addEventListener("click", () => removePasskey(c.webauthnCredentialId, remove));
    li.append(text, " ", remove);
    list.appendChild(li);
  }
  document.getElementById("none").hidden = state.credentials.length > 0;
  showView("view-list");
}

async function removePasskey(id, button) {
  button.disabled = true;
  const r = await callWithSession("POST", "/webauthn/credential/remove", { webauthnCredentialId: id }, "webauthn");
  button.disabled = false;
  if (r.status !== 200) return say("form-error", r.message);
  if (r.json.status !== "OK") return say("form-error", describeStatus(r.json));
  say("status", words("passkey.js.removed"));
  await load();
}

add.hidden = !passkeysSupported;
add.addEventListener("click", async () => {
  say("form-error", "");
  add.disabled = true;
  // A passkey login of this person gets one more passkey; a person without one gets a passkey login
  // linked to them (shouldTryLinkingWithSessionUser), for the address of their account.
  const login = state.passkeyLogins[0];
  const r = login
    ? await registerPasskey({ email: login.email }, (body) => callWithSession("POST", "/webauthn/credential", { ...body, recipeUserId: login.recipeUserId }, "webauthn"))
    : await registerPasskey({ email: state.email }, (body) => callWithSession("POST", "/webauthn/signup", { ...body, shouldTryLinkingWithSessionUser: true }, "webauthn"));
  add.disabled = false;
  if (r.json && (await sayRefusal("form-error", r.json, { email: state.email }))) return;
  if (!r.json || r.json.status !== "OK") return say("form-error", r.message || describePasskeyStatus(r.json));
  say("status", words("passkey.js.ready"));
  await load();
});

await load();
