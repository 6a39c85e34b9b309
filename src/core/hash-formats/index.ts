import { argon2Phc } from "./argon2.js";
import { bcrypt, djangoBcryptSha256 } from "./bcrypt.js";
import { djangoPbkdf2, phcPbkdf2 } from "./pbkdf2.js";
import { phpass } from "./phpass.js";
import { betterAuthScrypt, firebaseScrypt, scryptPhc } from "./scrypt.js";
import type { HashFormat } from "./types.js";

export type { HashFormat } from "./types.js";
export { bcryptCost, MAX_BCRYPT_COST } from "./bcrypt.js";
export { keycloakCredentialToPhc } from "./pbkdf2.js";
export { toFbScrypt, type FirebaseHashConfig } from "./scrypt.js";

/**
 * Every password-hash format brought in from another system, recognised by its own string (each
 * prefix or shape matches one format only). core/passwords.ts is the one place that asks this
 * list, at import (check) and at sign-in (verify); a new format is one more entry here.
 */
export const IMPORTED_HASH_FORMATS: readonly HashFormat[] = [
  bcrypt, djangoBcryptSha256, argon2Phc, scryptPhc, betterAuthScrypt, firebaseScrypt, djangoPbkdf2, phcPbkdf2, phpass,
];

/** The format of an imported hash, or undefined when none recognises it. */
export function importedHashFormat(hash: string): HashFormat | undefined {
  return IMPORTED_HASH_FORMATS.find((f) => f.matches(hash));
}
