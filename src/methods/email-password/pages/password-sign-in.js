// The sign-in page's address and password form (Room.signIn of email-password): POST /signin or
// /signup, and what a refused sign-in offers (a reset link proves the address).
import { call, checkRequired, describeStatus, finishSignIn, say, setBusy, showFieldErrors, webBase, words } from "./api.js";
import { sayRefusal } from "./refusal.js";

/** Submits the form as a sign-in or a sign-up (whichever the page shows). */
export function mountSignIn({ target, signingUp }) {
  const form = document.getElementById("form");
  const password = document.getElementById("password");
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    say("form-error", "");
    if (showFieldErrors(form, checkRequired(form))) return;
    const signUp = signingUp();
    const email = document.getElementById("email").value.trim();
    setBusy(form, true);
    say("status", words(signUp ? "password.js.creating" : "password.js.signingIn"));
    const r = await call("POST", signUp ? "/signup" : "/signin", { formFields: [{ id: "email", value: email }, { id: "password", value: password.value }] }, "emailpassword");
    setBusy(form, false);
    say("status", "");
    if (r.status !== 200) return say("form-error", r.message);
    if (r.json.status === "FIELD_ERROR") return void showFieldErrors(form, r.json.formFields);
    if (r.json.status !== "OK") {
      if (!(await sayRefusal("form-error", r.json, { email, target }))) say("form-error", describeStatus(r.json));
      password.focus();
      return;
    }
    await finishSignIn(email, target);
  });
  return {
    show(signUp) {
      document.getElementById("submit").textContent = words(signUp ? "js.signUp" : "js.signIn");
      password.autocomplete = signUp ? "new-password" : "current-password";
      document.getElementById("password-hint").hidden = !signUp;
      document.getElementById("forgot").hidden = signUp;
      showFieldErrors(form, []);
    },
  };
}

/** The form that signs in without leaving the page (the verify page's "Sign in to finish"). */
export function mountInPlace({ errorId, done }) {
  const form = document.getElementById("sign-in-form");
  if (!form) return;
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    say(errorId, "");
    if (showFieldErrors(form, checkRequired(form))) return;
    setBusy(form, true);
    const r = await call("POST", "/signin", { formFields: [{ id: "email", value: document.getElementById("email").value.trim() }, { id: "password", value: document.getElementById("password").value }] }, "emailpassword");
    setBusy(form, false);
    if (r.status !== 200) return say(errorId, r.message);
    if (r.json.status === "FIELD_ERROR") return void showFieldErrors(form, r.json.formFields);
    if (r.json.status !== "OK") {
      say(errorId, describeStatus(r.json));
      document.getElementById("password").focus();
      return;
    }
    done();
  });
}

/** Beside a refusal: the address is taken (choose a password by reset), or unverified (the reset link proves it). */
export function refusalActions(kind, { email }) {
  if (kind === "taken") return [{ link: words("password.js.forgot"), href: `${webBase}/reset-password` }];
  if (kind === "unverified") return [{ button: words("password.js.sendMeLink"), work: () => sendResetLink(email) }];
  return [];
}

/** The reset link proves the address; the reset then joins the account that has it verified. */
async function sendResetLink(email) {
  const r = await call("POST", "/user/password/reset/token", { formFields: [{ id: "email", value: email }] }, "emailpassword");
  return r.status === 200 && r.json.status === "OK" ? words("password.js.linkSent", { email }) : (r.message || words("password.js.mailFailed"));
}
