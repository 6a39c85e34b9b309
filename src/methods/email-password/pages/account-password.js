// Its part of "My account" (Room.accountPage of email-password): the change-password form, and the
// password an address change is proven by (#email-password, in the account's address form).
import { callWithSession, describeStatus, say, showFieldErrors, words } from "./api.js";

const value = (id) => document.getElementById(id).value;

/** POST /account/password from the form; the other sessions end with it, so the page reads its list again. */
export function mountAccount({ onSubmit, sessionsChanged }) {
  onSubmit("password-form", "password-error", () => callWithSession("POST", "/account/password", { currentPassword: value("current-password"), newPassword: value("new-password") }, "session"), (json, form) => {
    if (json.status === "FIELD_ERROR") return void showFieldErrors(form, json.formFields.map((f) => ({ ...f, id: "new-password" })));
    if (json.status !== "OK") return say("password-error", json.status === "NO_PASSWORD_LOGIN" ? words("password.js.noPassword") : json.status === "WRONG_CREDENTIALS_ERROR" ? words("password.js.wrongCurrent") : describeStatus(json));
    form.reset();
    say("password-status", words("password.js.changed"));
    sessionsChanged();
  });
}

/** What POST /account/email is proven by: the password typed in the address form. */
export const emailChangeProof = () => ({ password: value("email-password") });
