// Sign-out page. Opened from a page of this origin (the server says so: data-sign-out-at-once), it
// signs out at once; opened from anywhere else it signs nobody out (a link, a redirect or an <img>
// from any site could otherwise) until the person's click. Either way POST /signout from this page
// (with `rid`, like the SDKs) revokes the session and clears the cookies, and then the browser goes
// to the allowed redirect (?redirectToPath=, as on the sign-in page). "Stay signed in" goes there untouched.
import { callWithSession, redirectTarget, say, setBusy, words } from "./api.js";

const target = redirectTarget(new URLSearchParams(window.location.search).get("redirectToPath"));
const form = document.getElementById("sign-out-form");
document.getElementById("stay").href = target;

async function signOut() {
  setBusy(form, true);
  const r = await callWithSession("POST", "/signout", undefined, "session");
  // 401: there was no live session (signed out already, or expired): nothing is left to revoke.
  if (r.status === 200 || r.status === 401) {
    say("status", words("js.signedOutDone"));
    window.location.replace(target);
    return;
  }
  setBusy(form, false);
  form.hidden = false;
  say("form-error", r.message);
  document.getElementById("retry").hidden = false;
}

form.addEventListener("submit", (e) => {
  e.preventDefault();
  void signOut();
});
if (document.body.dataset.signOutAtOnce === "1") void signOut();
