import { describeLinkRefusals, type SignInUpReasons } from "../../core/linking.js";

/**
 * Passwordless's fixed `reason` strings, word for word as supertokens-node sends them with
 * SIGN_IN_UP_NOT_ALLOWED (recipe/passwordless/api/implementation.ts); the prebuilt UI shows them.
 */
export const PASSWORDLESS_REASONS: SignInUpReasons = {
  signUp: "Cannot sign in / up due to security reasons. Please try a different login method or contact support. (ERR_CODE_002)",
  signIn: "Cannot sign in / up due to security reasons. Please try a different login method or contact support. (ERR_CODE_003)",
  link: describeLinkRefusals(["ERR_CODE_017", "ERR_CODE_018", "ERR_CODE_019"]),
};
