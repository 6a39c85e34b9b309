import { describeLinkRefusals, type LinkRefusalCodes } from "../../core/linking.js";

/**
 * The ERR_CODE numbers third-party sign-in answers with, written once: its reasons below end in
 * them, and its sign-in part (pages.ts) tells the hosted pages which refusal each is.
 */
export const SIGN_UP_NOT_ALLOWED_CODE = "006";
export const SIGN_IN_NOT_ALLOWED_CODE = "004";
export const LINK_CODES: LinkRefusalCodes = ["020", "021", "022"];

/**
 * Third-party's fixed `reason` strings, word for word as supertokens-node sends them with
 * SIGN_IN_UP_NOT_ALLOWED (recipe/thirdparty/api/implementation.ts); the prebuilt UI shows them.
 */
export const SIGN_UP_NOT_ALLOWED = `Cannot sign in / up due to security reasons. Please try a different login method or contact support. (ERR_CODE_${SIGN_UP_NOT_ALLOWED_CODE})`;
export const SIGN_IN_NOT_ALLOWED = `Cannot sign in / up due to security reasons. Please try a different login method or contact support. (ERR_CODE_${SIGN_IN_NOT_ALLOWED_CODE})`;

/** Reasons when the identity could not join the signed-in user (ERR_CODE_020–022). */
export const LINK_REFUSED = describeLinkRefusals(LINK_CODES);
