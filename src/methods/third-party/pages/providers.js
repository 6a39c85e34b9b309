// The sign-in page's provider buttons (Room.signIn of third-party): one per configured provider,
// from GET /authorisationurl to the provider, which sends the browser back to the callback page.
import { call, describeStatus, say, webBase, words } from "./api.js";

/** The sign-in page's part: the buttons appear once the form shows. */
export function mountSignIn({ target }) {
  return { start: () => showProviders(target) };
}

/** One button per configured provider, from the public GET /loginmethods. */
async function showProviders(target) {
  const r = await call("GET", "/loginmethods");
  const providers = r.status === 200 && r.json.thirdParty && r.json.thirdParty.enabled ? r.json.thirdParty.providers : [];
  if (!providers.length) return;
  const box = document.getElementById("providers");
  for (const p of providers) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "provider";
    b.textContent = words("thirdParty.js.continueWith", { provider: p.name });
    b.addEventListener("click", () => startProvider(p.id, b, target));
    box.appendChild(b);
  }
  const or = document.createElement("p");
  or.className = "or";
  or.textContent = words("thirdParty.js.orEmail");
  box.appendChild(or);
  box.hidden = false;
}

/**
 * Asks the API for the provider's URL and goes there. Like the SDK, the page adds its own `state`
 * and keeps it (with the PKCE verifier, where to return and the page's locale) in sessionStorage
 * for the callback.
 */
async function startProvider(id, button, target) {
  button.disabled = true;
  const redirectURI = `${window.location.origin}${webBase}/callback/${encodeURIComponent(id)}`;
  const r = await call("GET", `/authorisationurl?thirdPartyId=${encodeURIComponent(id)}&redirectURIOnProviderDashboard=${encodeURIComponent(redirectURI)}`);
  if (r.status !== 200 || r.json.status !== "OK") {
    button.disabled = false;
    return say("form-error", r.status !== 200 ? r.message : describeStatus(r.json));
  }
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const state = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  // The page's language travels with the state, so a sign-up stores the one the person read the page in.
  const locale = document.documentElement.lang;
  sessionStorage.setItem("authsvc.oauth", JSON.stringify({ id, state, redirectURI, pkceCodeVerifier: r.json.pkceCodeVerifier, target, locale }));
  const url = new URL(r.json.urlWithQueryParams);
  url.searchParams.set("state", state);
  window.location.assign(url.toString());
}
