// Account-linking refusals in the pages' own words. The API answers *_NOT_ALLOWED with
// supertokens-node's fixed reason ("Cannot sign in / up due to security reasons … (ERR_CODE_007)"),
// which the SDKs' prebuilt UI shows verbatim; these pages tell the person what to do instead.
// The code at the end of the reason says which refusal it is (docs/account-linking.md). The rooms add
// their own kinds (SignInPart.refusals): the served file ends with a call of addRefusalKind for each.

const KINDS = {
  // A new login method for an address that already has an account.
  taken: ["006", "007", "025"],
  // A sign-in with a code for an address that another account holds unverified (or two accounts do).
  noCode: ["002", "003"],
  // The right password, but the login's address is unverified and another account has it too.
  unverified: ["008"],
  // A provider's identity, unconfirmed by the provider, whose address another account holds.
  elsewhere: ["004"],
  // Adding a method to the signed-in account: its address must be verified first.
  verifyFirst: ["009", "013", "017", "020", "026", "031"],
  // Adding a method that belongs to another account already.
  methodTaken: ["010", "014", "018", "021", "027", "032"],
  // Adding a method whose address another account has.
  addressTaken: ["011", "015", "019", "022", "028", "033"],
};

/** Which refusal an answer is ("taken", "unverified", …), or "" when it is not an account-linking refusal. */
export function classifyRefusal(json) {
  const s = json && json.status;
  if (s !== "SIGN_IN_NOT_ALLOWED" && s !== "SIGN_UP_NOT_ALLOWED" && s !== "SIGN_IN_UP_NOT_ALLOWED") return "";
  const code = /\(ERR_CODE_(\d{3})\)\s*$/.exec(String(json.reason || ""));
  for (const [kind, codes] of Object.entries(KINDS)) if (code && codes.includes(code[1])) return kind;
  return "other";
}

const WORDS = {
  taken: "This address already has an account. Sign in to it instead: with the way you used before, with a code we email to the address, or choose a password with “Forgot your password?”.",
  unverified: "Verify your address first: another account uses this address too. We email you a link; opening it shows the address is yours, and you choose your password there.",
  noCode: "This address cannot sign in with a code here: another account uses it. Sign in the way you used before.",
  elsewhere: "Your provider does not confirm this address, and another account already uses this address. Sign in the way you did before, or with a code we email to the address.",
  verifyFirst: "Verify your email address first, then try again: we email you a link to confirm it.",
  methodTaken: "This sign-in method already belongs to another account. Sign in to that account to use it.",
  addressTaken: "Another account already uses this address, so it cannot be added to this one. Sign in to that account instead.",
  other: "This sign-in is not allowed for this account. Try another way to sign in.",
};

/** A room's kind of refusal: the codes that are it and its sentence (after the kernel's: a code of theirs stays theirs). */
function addRefusalKind(kind, codes, words) {
  KINDS[kind] = codes;
  WORDS[kind] = words;
}

/** The sentence for an account-linking refusal (never the protocol's ERR_CODE text), or "" for any other answer. */
export function describeRefusal(json) {
  const kind = classifyRefusal(json);
  return kind ? WORDS[kind] : "";
}
