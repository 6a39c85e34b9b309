// Third-party callback page: the provider sent the browser back with ?code=&state=. The query is
// taken out of the address bar first (the code is single-use, but need not linger), the state is
// checked against the one the sign-in page kept, and POST /signinup finishes the sign-in.
import { call, describeStatus, finishSignIn, say, webBase } from "./api.js";

const query = Object.fromEntries(new URLSearchParams(window.location.search));
window.history.replaceState(null, "", window.location.pathname);
const saved = JSON.parse(sessionStorage.getItem("authsvc.oauth") || "null");
sessionStorage.removeItem("authsvc.oauth");
const id = decodeURIComponent(window.location.pathname.slice(webBase.length + "/callback/".length));

function fail(text) {
  document.getElementById("progress-title").textContent = "Sign-in failed";
  say("form-error", text);
  const retry = document.getElementById("retry");
  document.getElementById("retry-link").href = webBase;
  retry.hidden = false;
  document.getElementById("progress-title").focus();
}

async function run() {
  if (!saved || saved.id !== id) return fail("This sign-in was not started from this browser tab. Please start again.");
  if (query.error) return fail(`The provider refused the sign-in (${query.error_description || query.error}).`);
  if (!query.state || query.state !== saved.state) return fail("The sign-in answer does not match the request we sent. Please start again.");
  const r = await call("POST", "/signinup", {
    thirdPartyId: id,
    redirectURIInfo: { redirectURIOnProviderDashboard: saved.redirectURI, redirectURIQueryParams: query, pkceCodeVerifier: saved.pkceCodeVerifier },
  }, "thirdparty");
  if (r.status !== 200) return fail(r.message);
  if (r.json.status !== "OK") return fail(describeStatus(r.json));
  await finishSignIn(r.json.user && r.json.user.emails ? r.json.user.emails[0] : "", saved.target);
}

run();
