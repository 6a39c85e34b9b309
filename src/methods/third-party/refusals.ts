import { describeLinkRefusals } from "../../core/linking.js";

/**
 * Third-party's fixed `reason` strings, word for word as supertokens-node sends them with
 * SIGN_IN_UP_NOT_ALLOWED (recipe/thirdparty/api/implementation.ts); the prebuilt UI shows them.
 */
export const SIGN_UP_NOT_ALLOWED = "Cannot sign in / up due to security reasons. Please try a different login method or contact support. (ERR_CODE_006)";
export const SIGN_IN_NOT_ALLOWED = "Cannot sign in / up due to security reasons. Please try a different login method or contact support. (ERR_CODE_004)";

/** Reasons when the identity could not join the signed-in user (ERR_CODE_020–022). */
export const LINK_REFUSED = describeLinkRefusals(["ERR_CODE_020", "ERR_CODE_021", "ERR_CODE_022"]);
