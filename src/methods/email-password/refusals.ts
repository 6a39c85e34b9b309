import { describeLinkRefusals } from "../../core/linking.js";

/**
 * The fixed `reason` strings of email/password's *_NOT_ALLOWED answers, word for word as
 * supertokens-node sends them (recipe/emailpassword/api/implementation.ts): the prebuilt UI shows
 * them verbatim, and they say no more than "this cannot be done here".
 */
export const SIGN_UP_NOT_ALLOWED = "Cannot sign up due to security reasons. Please try logging in, use a different login method or contact support. (ERR_CODE_007)";
export const SIGN_IN_NOT_ALLOWED = "Cannot sign in due to security reasons. Please try resetting your password, use a different login method or contact support. (ERR_CODE_008)";

/** Reasons when a sign-in (ERR_CODE_009–011) or sign-up (013–015) could not join the signed-in user. */
export const SIGN_IN_LINK_REFUSED = describeLinkRefusals(["ERR_CODE_009", "ERR_CODE_010", "ERR_CODE_011"]);
export const SIGN_UP_LINK_REFUSED = describeLinkRefusals(["ERR_CODE_013", "ERR_CODE_014", "ERR_CODE_015"]);
