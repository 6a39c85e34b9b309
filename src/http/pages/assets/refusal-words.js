// Account-linking refusals in the pages' own words (in the page's locale: each kind names the id of
// its sentence in the catalogues, which the page carries, api.js: words). The API answers *_NOT_ALLOWED with
// supertokens-node's fixed reason ("Cannot sign in / up due to security reasons … (ERR_CODE_007)"),
// which the SDKs' prebuilt UI shows verbatim; these pages tell the person what to do instead.
// The code at the end of the reason says which refusal it is (docs/account-linking.md). Each method
// has its own codes, so the rooms declare them (SignInPart.refusals): the served file ends with a
// call of addRefusalKind for each, which adds a room's codes to a kind below, or a kind of its own
// with the id of its sentence (a `js.` word of the room's catalogue, so every page has it).

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

// The kinds every method can give (sign-in-parts.ts: sharedRefusalKinds), and any other refusal:
// the ids of their sentences in the kernel's catalogue (src/words/kernel/).
const WORDS = {
  // A new login method for an address that already has an account.
  taken: "js.refusal.taken",
  // Adding a method to the signed-in account: its address must be verified first.
  verifyFirst: "js.refusal.verifyFirst",
  // Adding a method that belongs to another account already.
  methodTaken: "js.refusal.methodTaken",
  // Adding a method whose address another account has.
  addressTaken: "js.refusal.addressTaken",
  other: "js.refusal.other",
};

/** A room's codes: of one of the kinds above (no `words`), or of its own kind, with the id of its sentence. */
function addRefusalKind(kind, codes, words) {
  KINDS[kind] = [...(KINDS[kind] || []), ...codes];
  if (words) WORDS[kind] = words;
}

/**
 * The id of the sentence for an account-linking refusal (never the protocol's ERR_CODE text), or ""
 * for any other answer; api.js's words(id) says it in the page's locale.
 */
export function refusalWordId(json) {
  const kind = classifyRefusal(json);
  return kind ? WORDS[kind] : "";
}
