// Its part of "My account" (Room.accountPage of email-password): the change-password form, and the
// password an address change is proven by (#email-password, in the account's address form).
import { callWithSession, describeStatus, say, showFieldErrors } from "./api.js";

const value = (id) => document.getElementById(id).value;

/** POST /account/password from the form; the other sessions end with it, so the page reads its list again. */
export function mountAccount({ onSubmit, sessionsChanged }) {
  onSubmit("password-form", "password-error", () => callWithSession("POST", "/account/password", { currentPassword: value("current-password"), newPassword: value("new-password") }, "session"), (json, form) => {
    if (json.status === "FIELD_ERROR") return void showFieldErrors(form, json.formFields.map((f) => ({ ...f, id: "new-password" })));
    if (json.status !== "OK") return say("password-error", json.status === "NO_PASSWORD_LOGIN" ? "Your account signs in without a password." : describeStatus(json).replace("email or the ", ""));
    form.reset();
    say("password-status", "Your password was changed. Your other sessions were signed out.");
    sessionsChanged();
  });
}

/** What POST /account/email is proven by: the password typed in the address form. */
export const emailChangeProof = () => ({ password: value("email-password") });
