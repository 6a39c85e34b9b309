// "Manage my second factor" for a signed-in user: the devices (GET /totp/device/list), removing one
// (POST /totp/device/remove), adding one (the MFA page with ?setup=true) and a new set of recovery
// codes (POST /totp/recovery-codes). A session still missing its second factor goes to the MFA page.
import { callWithSession, say, webBase, words } from "./api.js";
import { showRecoveryCodes } from "./recovery-codes.js";

const mfaFirst = () => window.location.assign(`${webBase}/mfa?then=manage`);

async function load() {
  const r = await callWithSession("GET", "/totp/device/list", undefined, "totp");
  if (r.status === 401) return window.location.assign(`${webBase}?redirectToPath=${encodeURIComponent(window.location.pathname)}`);
  if (r.status !== 200) return say("form-error", r.message);
  const verified = r.json.devices.filter((d) => d.verified);
  document.getElementById("state").textContent = words(verified.length ? "totp.js.on" : "totp.js.off");
  const list = document.getElementById("devices");
  list.replaceChildren(...verified.map((d) => {
    const li = document.createElement("li");
    const remove = Object.assign(document.createElement("button"), { type: "button", className: "secondary", textContent: words("totp.js.remove") });
    remove.setAttribute("aria-label", words("totp.js.removeNamed", { name: d.name }));
    remove.addEventListener("click", () => removeDevice(d.name, remove));
    li.append(Object.assign(document.createElement("span"), { textContent: d.name }), " ", remove);
    return li;
  }));
  document.getElementById("add").href = `${webBase}/mfa?setup=true&then=manage`;
  document.getElementById("new-codes").hidden = verified.length === 0;
}

async function removeDevice(name, button) {
  button.disabled = true;
  const r = await callWithSession("POST", "/totp/device/remove", { deviceName: name }, "totp");
  button.disabled = false;
  if (r.status === 403) return mfaFirst();
  if (r.status !== 200) return say("form-error", r.message);
  say("status", words("totp.js.removed", { name }));
  await load();
}

document.getElementById("new-codes").addEventListener("click", async () => {
  const r = await callWithSession("POST", "/totp/recovery-codes", undefined, "totp");
  if (r.status === 403) return mfaFirst();
  if (r.status !== 200 || r.json.status !== "OK") return say("form-error", r.message || words("totp.js.turnOnFirst"));
  showRecoveryCodes(r.json.recoveryCodes, `${webBase}/second-factor`);
});

load();
