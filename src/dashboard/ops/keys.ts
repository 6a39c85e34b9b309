import { listSigningKeys, rotateSigningKey, retiredKeyWindowMs, type KeyInfo } from "../../core/signing-keys.js";
import { actionForm, DASHBOARD_PATH, done, escapeHtml, formatTime, type DashboardRequest, type DashboardResult } from "../kit.js";
import { renderDashboardPage } from "../layout.js";
import { badge, tableRow, tableWrap, timeOrDash } from "./parts.js";

const PATH = `${DASHBOARD_PATH}/keys`;

/**
 * GET /admin/keys: the JWT signing keys (kid, created, state, retired), never their material; and
 * "Rotate now", confirmed by a checkbox the server checks (a script dialog would be no check at all).
 */
export async function showKeys(r: DashboardRequest): Promise<DashboardResult> {
  const keys = await listSigningKeys(r.ctx);
  const minutes = Math.round(retiredKeyWindowMs(r.ctx.config) / 60_000);
  const confirm = `<div class="field"><label for="confirm">Type <code>rotate</code> to confirm</label><input id="confirm" name="confirm" autocomplete="off" autocapitalize="none" spellcheck="false" required aria-describedby="confirm-hint"><p class="hint" id="confirm-hint">Tokens signed with the old key keep working until they expire.</p></div>`;
  const main = `<section class="panel" aria-labelledby="list"><h2 id="list">Keys</h2>
<p class="muted">Access tokens are signed with the current key; a retired key stays published in the JWKS for ${minutes} minutes (the tokens it signed live that long at most), then expires.</p>
${tableWrap("Signing keys, newest first", ["Key id (kid)", "Created", "State", "Retired"], keys.map(renderKey), "No signing key yet: the server makes the first at start.")}
</section>
<section class="panel" aria-labelledby="rotate"><h2 id="rotate">Rotate</h2>
<p>Rotate when a key may have leaked, or on a schedule. This server signs with the new key at once; other instances pick it up within a minute, as after <code>authsvc keys rotate</code>.</p>
${actionForm(r, { action: `${PATH}/rotate`, label: "Rotate now", danger: true, fields: confirm, className: "" })}
</section>`;
  return renderDashboardPage(r, { title: "Signing keys", section: PATH, main });
}

function renderKey(k: KeyInfo): string {
  const state = k.state === "current" ? badge("current", "ok") : k.state === "published" ? badge("published", "warn") : badge("expired", "");
  return tableRow([`<span class="mono">${escapeHtml(k.kid)}</span>`, formatTime(k.createdAt), state, timeOrDash(k.retiredAt)]);
}

/** POST /admin/keys/rotate (confirm=rotate): the same rotation as `authsvc keys rotate`, recorded with the admin as source. */
export async function rotateKey(r: DashboardRequest): Promise<DashboardResult> {
  if (r.form.get("confirm")?.trim().toLowerCase() !== "rotate") return done(PATH, "Nothing changed: type rotate to confirm the rotation.", "error");
  const { kid, retired } = await rotateSigningKey(r.ctx, r.source);
  return done(PATH, `New signing key ${kid}; ${retired} key(s) retired and still published until their tokens expire.`);
}
