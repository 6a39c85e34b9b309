// Account-linking refusals in the pages' own words. The API answers *_NOT_ALLOWED with
// supertokens-node's fixed reason ("Cannot sign in / up due to security reasons … (ERR_CODE_007)"),
// which the SDKs' prebuilt UI shows verbatim; these pages tell the person what to do instead.
// The code at the end of the reason says which refusal it is (docs/account-linking.md). Each method
// has its own codes, so the rooms declare them (SignInPart.refusals): the served file ends with a
// call of addRefusalKind for each, which adds a room's codes to a kind below, or a kind of its own
// with its sentence.

/** The codes of each kind, as the rooms add them. */
const KINDS = {};

/** Which refusal an answer is ("taken", "unverified", …), or "" when it is not an account-linking refusal. */
export function classifyRefusal(json) {
  const s = json && json.status;
  if (s !== "SIGN_IN_NOT_ALLOWED" && s !== "SIGN_UP_NOT_ALLOWED" && s !== "SIGN_IN_UP_NOT_ALLOWED") return "";
  const code = /\(ERR_CODE_(\d{3})\)\s*$/.exec(String(json.reason || ""));
  for (const [kind, codes] of Object.entries(KINDS)) if (code && codes.includes(code[1])) return kind;
  return "other";
}

// The kinds every method can give (sign-in-parts.ts: sharedRefusalKinds), and any other refusal.
const WORDS = {
  // A new login method for an address that already has an account.
  taken: "This address already has an account. Sign in to it instead: with the way you used before, with a code we email to the address, or choose a password with “Forgot your password?”.",
  // Adding a method to the signed-in account: its address must be verified first.
  verifyFirst: "Verify your email address first, then try again: we email you a link to confirm it.",
  // Adding a method that belongs to another account already.
  methodTaken: "This sign-in method already belongs to another account. Sign in to that account to use it.",
  // Adding a method whose address another account has.
  addressTaken: "Another account already uses this address, so it cannot be added to this one. Sign in to that account instead.",
  other: "This sign-in is not allowed for this account. Try another way to sign in.",
};

/** A room's codes: of one of the kinds above (no `words`), or of its own kind, with its sentence. */
function addRefusalKind(kind, codes, words) {
  KINDS[kind] = [...(KINDS[kind] || []), ...codes];
  if (words) WORDS[kind] = words;
}

/** The sentence for an account-linking refusal (never the protocol's ERR_CODE text), or "" for any other answer. */
export function describeRefusal(json) {
  const kind = classifyRefusal(json);
  return kind ? WORDS[kind] : "";
}
