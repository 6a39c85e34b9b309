// "My account" after a sign-in with a breached password (--breached-passwords-at-sign-in): the
// notice says why to change it while the session's token carries the claim. A password changed on
// this page clears the claim at the next refresh, which the page asks for after a change, so the
// notice goes with it.
import { call } from "./api.js";
import { frontTokenClaims } from "./protection.js";

export function mountAccount() {
  const notice = document.getElementById("breached-notice");
  if (!notice) return;
  const show = () => { notice.hidden = frontTokenClaims().pwd_breached !== true; };
  show(); // role=alert: read out as it appears, without taking the focus from the page's heading
  const form = document.getElementById("password-form");
  // After the page's own handler: a successful change empties the form (form.reset()).
  form?.addEventListener("reset", async () => {
    await call("POST", "/session/refresh", undefined, "session");
    show();
  });
}
