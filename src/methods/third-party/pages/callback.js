// Third-party callback page: the provider sent the browser back with ?code=&state=. The query is
// taken out of the address bar first (the code is single-use, but need not linger), the state is
// checked against the one the sign-in page kept, and POST /signinup finishes the sign-in (with the
// sign-in page's locale, which a new person's mail is then written in).
import { call, describeStatus, finishSignIn, say, webBase, words } from "./api.js";

const query = Object.fromEntries(new URLSearchParams(window.location.search));
window.history.replaceState(null, "", window.location.pathname);
const saved = JSON.parse(sessionStorage.getItem("authsvc.oauth") || "null");
sessionStorage.removeItem("authsvc.oauth");
const id = decodeURIComponent(window.location.pathname.slice(webBase.length + "/callback/".length));

function fail(text) {
  document.getElementById("progress-title").textContent = words("thirdParty.js.failed");
  say("form-error", text);
  const retry = document.getElementById("retry");
  document.getElementById("retry-link").href = webBase;
  retry.hidden = false;
  document.getElementById("progress-title").focus();
}

async function run() {
  if (!saved || saved.id !== id) return fail(words("thirdParty.js.otherTab"));
  if (query.error) return fail(words("thirdParty.js.providerRefused", { reason: query.error_description || query.error }));
  if (!query.state || query.state !== saved.state) return fail(words("thirdParty.js.stateMismatch"));
  const r = await call("POST", "/signinup", {
    thirdPartyId: id,
    redirectURIInfo: { redirectURIOnProviderDashboard: saved.redirectURI, redirectURIQueryParams: query, pkceCodeVerifier: saved.pkceCodeVerifier },
    ...(saved.locale ? { locale: saved.locale } : {}),
  }, "thirdparty");
  if (r.status !== 200) return fail(r.message);
  if (r.json.status !== "OK") return fail(describeStatus(r.json));
  await finishSignIn(r.json.user && r.json.user.emails ? r.json.user.emails[0] : "", saved.target);
}

run();
