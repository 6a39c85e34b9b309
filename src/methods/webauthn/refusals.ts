import { describeLinkRefusals } from "../../core/linking.js";

/** supertokens-node's reasons for the passkey recipe (recipe/webauthn/api/implementation.ts). */
export const SIGN_UP_NOT_ALLOWED = "Cannot sign up due to security reasons. Please try logging in, use a different login method or contact support. (ERR_CODE_025)";
export const SIGN_IN_NOT_ALLOWED = "Cannot sign in due to security reasons. Please try recovering your account, use a different login method or contact support. (ERR_CODE_030)";
export const SIGN_UP_LINK_REFUSED = describeLinkRefusals(["ERR_CODE_026", "ERR_CODE_027", "ERR_CODE_028"]);
export const SIGN_IN_LINK_REFUSED = describeLinkRefusals(["ERR_CODE_031", "ERR_CODE_032", "ERR_CODE_033"]);
/** Our own refusal: removing a person's last way in would lock them out. */
export const LAST_WAY_IN = "This passkey is the last way to sign in to this account: add another passkey or sign-in method before removing it.";
