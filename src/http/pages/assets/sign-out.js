// Sign-out page: the GET only loads this page (a link or an <img> on another site cannot sign
// anyone out); the session is revoked by POST /signout from here, which also clears the cookies,
// and then the browser goes to the allowed redirect (?redirectToPath=, as on the sign-in page).
import { callWithSession, redirectTarget, say } from "./api.js";

const target = redirectTarget(new URLSearchParams(window.location.search).get("redirectToPath"));
const r = await callWithSession("POST", "/signout", undefined, "session");
// 401: there was no live session (signed out already, or expired): nothing is left to revoke.
if (r.status === 200 || r.status === 401) {
  say("status", "You are signed out.");
  window.location.replace(target);
} else {
  say("form-error", r.message);
  document.getElementById("retry").hidden = false;
}
