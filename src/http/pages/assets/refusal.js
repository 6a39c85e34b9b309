// An account-linking refusal on a hosted page: the page's own words (refusal-words.js) and, beside
// them, the one thing that gets the person further: each room's sign-in module offers its own
// (data-sign-in-parts: its refusalActions(kind, { email, target })), e.g. the mail proving the
// address, a code by mail, the recovery of an account; the kernel's is the verification mail.
import { callWithSession, say, words } from "./api.js";
import { classifyRefusal, refusalWordId } from "./refusal-words.js";

/**
 * Says why `json` (a *_NOT_ALLOWED answer) was refused in live region `errorId` and offers what to
 * do next. `email`: the address the person typed (or the provider gave); `target`: where a
 * sign-in goes afterwards. Returns false when `json` is not an account-linking refusal.
 */
export async function sayRefusal(errorId, json, { email, target }) {
  const kind = classifyRefusal(json);
  if (!kind) return false;
  say(errorId, words(refusalWordId(json)));
  const offered = [];
  if (kind === "verifyFirst") offered.push({ button: words("js.refusal.sendVerification"), work: sendVerificationMail });
  for (const m of await roomModules()) if (m.refusalActions) offered.push(...(await m.refusalActions(kind, { email, target })));
  // Buttons first (they act here), then links to other pages.
  const actions = [...offered.filter((a) => a.button).map((a) => button(a.button, a.work)), ...offered.filter((a) => a.link).map((a) => link(a.link, a.href))];
  if (actions.length) showActions(errorId, actions);
  return true;
}

/** The rooms' sign-in modules, in their order (a module does nothing when imported). */
async function roomModules() {
  const names = (document.body.dataset.signInParts || "").split(",").filter(Boolean);
  return Promise.all(names.map((name) => import(`./${name}`)));
}

async function sendVerificationMail() {
  const r = await callWithSession("POST", "/user/email/verify/token", undefined, "emailverification");
  return r.status === 200 ? words("js.refusal.verificationSent") : r.message;
}

/** A button whose work returns the sentence to announce (or "" when it moved on to another page). */
function button(text, work) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "secondary";
  b.textContent = text;
  b.addEventListener("click", async () => {
    b.disabled = true;
    const said = await work();
    b.disabled = false;
    if (said) {
      const status = b.parentElement.querySelector("[role=status]");
      status.textContent = said;
    }
  });
  return b;
}

function link(text, href) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  return a;
}

/** The actions right after the message (say() removes them with the message). */
function showActions(errorId, actions) {
  const box = document.createElement("div");
  box.id = `${errorId}-action`;
  box.className = "actions";
  box.append(...actions);
  const status = document.createElement("p");
  status.className = "status";
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  box.append(status);
  document.getElementById(errorId).after(box);
}
