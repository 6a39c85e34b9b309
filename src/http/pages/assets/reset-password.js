// Reset-password page: without a token, ask for the link (POST /user/password/reset/token); with
// one (taken out of the address bar by token.js), choose the new password (POST /user/password/reset).
import { call, checkRequired, describeStatus, say, setBusy, showFieldErrors, showView } from "./api.js";

const token = window.authsvcToken;

const requestForm = document.getElementById("request-form");
requestForm.addEventListener("submit", async (e) => {
  e.preventDefault();
  say("request-error", "");
  if (showFieldErrors(requestForm, checkRequired(requestForm))) return;
  const email = document.getElementById("email").value.trim();
  setBusy(requestForm, true);
  const r = await call("POST", "/user/password/reset/token", { formFields: [{ id: "email", value: email }] }, "emailpassword");
  setBusy(requestForm, false);
  if (r.status !== 200) return say("request-error", r.message);
  if (r.json.status === "FIELD_ERROR") return void showFieldErrors(requestForm, r.json.formFields);
  if (r.json.status !== "OK") return say("request-error", describeStatus(r.json));
  document.getElementById("sent-address").textContent = email;
  showView("view-sent");
});

const newForm = document.getElementById("new-form");
newForm.addEventListener("submit", async (e) => {
  e.preventDefault();
  say("new-error", "");
  const errors = checkRequired(newForm);
  const password = document.getElementById("password").value;
  if (!errors.length && password !== document.getElementById("confirm").value) errors.push({ id: "confirm", error: "The two passwords are not the same." });
  if (showFieldErrors(newForm, errors)) return;
  setBusy(newForm, true);
  const r = await call("POST", "/user/password/reset", { method: "token", token, formFields: [{ id: "password", value: password }] }, "emailpassword");
  setBusy(newForm, false);
  if (r.status === 400) return showView("view-invalid");
  if (r.status !== 200) return say("new-error", r.message);
  // The server's policy message goes next to the field it is about.
  if (r.json.status === "FIELD_ERROR") return void showFieldErrors(newForm, r.json.formFields);
  if (r.json.status === "RESET_PASSWORD_INVALID_TOKEN_ERROR") return showView("view-invalid");
  if (r.json.status !== "OK") return say("new-error", describeStatus(r.json));
  showView("view-changed");
});

showView(token ? "view-new" : "view-request");
