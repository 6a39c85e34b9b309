// Sign-in / sign-up page: the kernel's part is the title, the switch between the two and the
// resumption of a live session; each way in is a room's module (data-sign-in-parts, Room.signIn),
// mounted here: mountSignIn({ target, signingUp }) may return show(signUp) and start().
import { callWithSession, redirectTarget, say, words } from "./api.js";

const params = new URLSearchParams(window.location.search);
const target = redirectTarget(params.get("redirectToPath"));
let signUp = params.get("show") === "signup";
const names = (document.body.dataset.signInParts || "").split(",").filter(Boolean);
const modules = await Promise.all(names.map((name) => import(`./${name}`)));
const parts = modules.map((m) => (m.mountSignIn ? m.mountSignIn({ target, signingUp: () => signUp }) : undefined) || {});

function render() {
  const title = words(signUp ? "js.signUp" : "js.signIn");
  document.getElementById("form-title").textContent = title;
  document.getElementById("switch-text").textContent = words(signUp ? "js.haveAccount" : "js.noAccount");
  document.getElementById("switch").textContent = words(signUp ? "js.signIn" : "js.signUp");
  document.title = document.title.replace(/^[^·]*/, title + " ");
  for (const p of parts) if (p.show) p.show(signUp);
  say("form-error", "");
}

document.getElementById("switch").addEventListener("click", () => {
  signUp = !signUp;
  const url = new URL(window.location.href);
  if (signUp) url.searchParams.set("show", "signup"); else url.searchParams.delete("show");
  window.history.replaceState(null, "", url);
  render();
  document.getElementById("form-title").focus();
});

/**
 * Opened with a live session (a server-rendered app sends the browser here when its access token
 * has expired): renew it through the refresh token and go back, without asking for the password.
 * Only a verified session goes straight back; any other answer shows the form.
 */
async function resumeSession() {
  const r = await callWithSession("GET", "/user/email/verify", undefined, "emailverification");
  if (r.status === 200 && r.json && r.json.status === "OK" && r.json.isVerified) {
    say("status", words("js.signedInBack"));
    // replace(): the back button must not return to a page that sends the browser away again.
    window.location.replace(target);
    return true;
  }
  return false;
}

render();
// signInAgain=1: the place that sent the browser here (allowing an app) needs a recent sign-in, so
// a live but older session is not resumed: the person signs in anew.
const again = params.get("signInAgain") === "1";
if (again) say("status", words("js.signInAgain"));
if (again || !(await resumeSession())) {
  document.getElementById("view-form").hidden = false;
  for (const p of parts) if (p.start) p.start();
}
