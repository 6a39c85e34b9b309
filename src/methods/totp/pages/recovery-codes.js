// The recovery codes view (after the first authenticator app, or a new set from the manage page):
// the codes one to a line, and Copy and Download so saving them is one click, not a hand-made list.
import { say, showView, words } from "./api.js";

/** Shows `codes` with "I saved them, continue" pointing at `next`. */
export function showRecoveryCodes(codes, next) {
  document.getElementById("codes").replaceChildren(...codes.map((c) => Object.assign(document.createElement("li"), { textContent: c })));
  const text = codes.join("\n") + "\n";
  const download = document.getElementById("codes-download");
  download.href = `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`;
  const copy = document.getElementById("codes-copy");
  copy.hidden = !(navigator.clipboard && window.isSecureContext);
  copy.onclick = async () => {
    try {
      await navigator.clipboard.writeText(text);
      say("codes-status", words("totp.js.copied"));
    } catch {
      say("codes-status", words("totp.js.copyFailed"));
    }
  };
  document.getElementById("codes-continue").href = next;
  showView("view-codes");
}
