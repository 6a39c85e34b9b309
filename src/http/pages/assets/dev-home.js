// The development home page (where a sign-in lands by default): who is signed in in this browser,
// with the account pages one click away, or that nobody is.
import { callWithSession } from "./api.js";

const r = await callWithSession("GET", "/account/me", undefined, "session");
if (r.status === 200) {
  document.getElementById("signed-in-email").textContent = r.json.user.email;
  document.getElementById("signed-in-id").textContent = r.json.user.id;
  document.getElementById("signed-in").hidden = false;
} else {
  document.getElementById("signed-out").hidden = false;
}
