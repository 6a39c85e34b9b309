import { describeLinkRefusals, type LinkRefusalCodes } from "../../core/linking.js";

/**
 * The ERR_CODE numbers the passkey recipe answers with, written once: its reasons below end in
 * them, and its sign-in part (pages.ts) tells the hosted pages which refusal each is.
 */
export const SIGN_UP_NOT_ALLOWED_CODE = "025";
export const SIGN_IN_NOT_ALLOWED_CODE = "030";
export const SIGN_UP_LINK_CODES: LinkRefusalCodes = ["026", "027", "028"];
export const SIGN_IN_LINK_CODES: LinkRefusalCodes = ["031", "032", "033"];

/** supertokens-node's reasons for the passkey recipe (recipe/webauthn/api/implementation.ts). */
export const SIGN_UP_NOT_ALLOWED = `Cannot sign up due to security reasons. Please try logging in, use a different login method or contact support. (ERR_CODE_${SIGN_UP_NOT_ALLOWED_CODE})`;
export const SIGN_IN_NOT_ALLOWED = `Cannot sign in due to security reasons. Please try recovering your account, use a different login method or contact support. (ERR_CODE_${SIGN_IN_NOT_ALLOWED_CODE})`;
export const SIGN_UP_LINK_REFUSED = describeLinkRefusals(SIGN_UP_LINK_CODES);
export const SIGN_IN_LINK_REFUSED = describeLinkRefusals(SIGN_IN_LINK_CODES);
/** Our own refusal: removing a person's last way in would lock them out. */
export const LAST_WAY_IN = "This passkey is the last way to sign in to this account: add another passkey or sign-in method before removing it.";
