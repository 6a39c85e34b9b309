// The sign-in page's routing to an organization's single sign-on (Room.signIn of sso): as the
// person types their address, POST /sso/discover asks whether its domain signs in through an
// organization's connection (the answer depends on the domain alone); if so, a "Sign in with
// <organization> SSO" button takes them to its IdP, and the note says whether it is the only way.
import { apiBase, call, say, words } from "./api.js";

const ADDRESS = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** The sign-in page's part: it listens to the form's address field once the form shows. */
export function mountSignIn({ target }) {
  return { start: () => watch(target) };
}

function watch(target) {
  const input = document.getElementById("email");
  const box = document.getElementById("sso-route");
  const note = document.getElementById("sso-note");
  const button = document.getElementById("sso-start");
  if (!input || !box) return;
  let asked = "";
  let route = null;
  let timer;
  const hide = () => { route = null; box.hidden = true; };
  // One question per domain: the answer is the same for every address there.
  const ask = async () => {
    const email = input.value.trim().toLowerCase();
    if (!ADDRESS.test(email)) { asked = ""; return hide(); }
    const domain = email.slice(email.lastIndexOf("@") + 1);
    if (domain === asked) return;
    asked = domain;
    const r = await call("POST", "/sso/discover", { email });
    if (asked !== domain) return; // the person typed on while it was asked
    const c = r.status === 200 && r.json && r.json.connection;
    if (!c) return hide();
    route = c;
    button.textContent = words("js.sso.signInWith", { name: c.organizationName });
    note.textContent = words(c.ssoRequired ? "js.sso.required" : "js.sso.offered", { domain, name: c.organizationName });
    box.classList.toggle("sso-required", c.ssoRequired === true);
    box.hidden = false;
  };
  input.addEventListener("input", () => { window.clearTimeout(timer); timer = window.setTimeout(ask, 350); });
  input.addEventListener("change", ask);
  button.addEventListener("click", () => {
    if (!route) return;
    button.disabled = true;
    say("status", words("js.sso.going", { name: route.organizationName }));
    // The connection brings the browser back to this path of the website (RelayState).
    const back = new URL(target, window.location.href);
    window.location.assign(`${apiBase}${route.loginPath}?redirectToPath=${encodeURIComponent(back.pathname + back.search + back.hash)}`);
  });
  if (input.value) ask();
}
