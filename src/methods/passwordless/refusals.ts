import { describeLinkRefusals, type LinkRefusalCodes, type SignInUpReasons } from "../../core/linking.js";

/**
 * The ERR_CODE numbers passwordless answers with, written once: its reasons below end in them, and
 * its sign-in part (pages.ts) tells the hosted pages which refusal each is.
 */
export const PASSWORDLESS_CODES: { signUp: string; signIn: string; link: LinkRefusalCodes } = { signUp: "002", signIn: "003", link: ["017", "018", "019"] };

/**
 * Passwordless's fixed `reason` strings, word for word as supertokens-node sends them with
 * SIGN_IN_UP_NOT_ALLOWED (recipe/passwordless/api/implementation.ts); the prebuilt UI shows them.
 */
export const PASSWORDLESS_REASONS: SignInUpReasons = {
  signUp: `Cannot sign in / up due to security reasons. Please try a different login method or contact support. (ERR_CODE_${PASSWORDLESS_CODES.signUp})`,
  signIn: `Cannot sign in / up due to security reasons. Please try a different login method or contact support. (ERR_CODE_${PASSWORDLESS_CODES.signIn})`,
  link: describeLinkRefusals(PASSWORDLESS_CODES.link),
};
