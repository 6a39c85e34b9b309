import type { Config } from "../../config/types.js";
import { escapeHtml } from "./layout.js";

/** The sign-in page's passkey block (assets/passkeys.js shows it when the browser can use passkeys). */
export const passkeySignInBlock = `<div id="passkey" class="providers" hidden>
    <button type="button" class="provider" id="passkey-sign-in">Sign in with a passkey</button>
    <button type="button" class="provider" id="passkey-sign-up" hidden>Create a passkey</button>
    <p class="or">or with your email and password</p>
  </div>`;

/** The sign-in page's link to passkey recovery. */
export const lostPasskeyLink = (c: Readonly<Config>) => `<p class="aside" id="lost-passkey"><a href="${escapeHtml(c.websiteBasePath)}/webauthn/recover">Lost your passkey?</a></p>`;
