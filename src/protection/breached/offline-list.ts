import { createRequire } from "node:module";

/**
 * The list authsvc ships for when the range API cannot answer (and for --breached-passwords
 * offline): zxcvbn-ts's ranked list of the 49,233 passwords most common in published breach corpora
 * (@zxcvbn-ts/language-common, already a dependency: the password policy uses its entries of 8
 * characters or more). Here every entry counts, lower-cased as the policy compares them. Loaded on
 * first use (~30 ms), like the policy's copy.
 */
let list: Set<string> | undefined;

export function isInOfflineList(password: string): boolean {
  list ??= new Set(load().dictionary["passwords-common"].map((p) => p.toLowerCase()));
  return list.has(password.normalize("NFKC").toLowerCase());
}

function load(): { dictionary: Record<string, string[]> } {
  return typeof require === "function" ? require("@zxcvbn-ts/language-common") : createRequire(import.meta.url)("@zxcvbn-ts/language-common");
}
