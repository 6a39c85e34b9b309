import { describeLinkRefusals, type LinkRefusalCodes } from "../../core/linking.js";

/**
 * The ERR_CODE numbers email/password answers with, written once: its reasons below end in them,
 * and its sign-in part (pages.ts) tells the hosted pages which refusal each is.
 */
export const SIGN_UP_NOT_ALLOWED_CODE = "007";
export const SIGN_IN_NOT_ALLOWED_CODE = "008";
export const SIGN_IN_LINK_CODES: LinkRefusalCodes = ["009", "010", "011"];
export const SIGN_UP_LINK_CODES: LinkRefusalCodes = ["013", "014", "015"];

/**
 * The fixed `reason` strings of email/password's *_NOT_ALLOWED answers, word for word as
 * supertokens-node sends them (recipe/emailpassword/api/implementation.ts): the prebuilt UI shows
 * them verbatim, and they say no more than "this cannot be done here".
 */
export const SIGN_UP_NOT_ALLOWED = `Cannot sign up due to security reasons. Please try logging in, use a different login method or contact support. (ERR_CODE_${SIGN_UP_NOT_ALLOWED_CODE})`;
export const SIGN_IN_NOT_ALLOWED = `Cannot sign in due to security reasons. Please try resetting your password, use a different login method or contact support. (ERR_CODE_${SIGN_IN_NOT_ALLOWED_CODE})`;

/** Reasons when a sign-in (ERR_CODE_009–011) or sign-up (013–015) could not join the signed-in user. */
export const SIGN_IN_LINK_REFUSED = describeLinkRefusals(SIGN_IN_LINK_CODES);
export const SIGN_UP_LINK_REFUSED = describeLinkRefusals(SIGN_UP_LINK_CODES);
