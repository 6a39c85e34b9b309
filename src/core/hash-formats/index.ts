import { argon2Phc, djangoArgon2 } from "./argon2.js";
import { aspnetIdentity } from "./aspnet.js";
import { auth0Custom, auth0HashToStored } from "./auth0.js";
import { bcrypt, djangoBcryptSha256, wordpressBcrypt } from "./bcrypt.js";
import { keycloakCredentialToPhc } from "./keycloak.js";
import { ldap } from "./ldap.js";
import { djangoPbkdf2, phcPbkdf2 } from "./pbkdf2.js";
import { phpass } from "./phpass.js";
import { betterAuthScrypt, firebaseScrypt, scryptPhc } from "./scrypt.js";
import type { HashFormat } from "./types.js";

export type { HashFormat } from "./types.js";
export { bcryptCost, MAX_BCRYPT_COST } from "./bcrypt.js";
export { keycloakCredentialToPhc } from "./keycloak.js";
export { auth0HashToStored } from "./auth0.js";
export { toFbScrypt, type FirebaseHashConfig } from "./scrypt.js";

/**
 * Every password-hash format brought in from another system, recognised by its own string (each
 * prefix or shape matches one format only). core/passwords.ts is the one place that asks this
 * list, at import (check) and at sign-in (verify); a new format is one more entry here. Each is
 * bounded to what one sign-in may cost (docs/moving-in.md, the bounds table).
 */
export const IMPORTED_HASH_FORMATS: readonly HashFormat[] = [
  bcrypt, djangoBcryptSha256, wordpressBcrypt, argon2Phc, djangoArgon2, scryptPhc, betterAuthScrypt, firebaseScrypt,
  djangoPbkdf2, phcPbkdf2, aspnetIdentity, phpass, ldap, auth0Custom,
];

/** The format of an imported hash, or undefined when none recognises it. */
export function importedHashFormat(hash: string): HashFormat | undefined {
  return IMPORTED_HASH_FORMATS.find((f) => f.matches(hash));
}

/**
 * A password hash another system exported as an object rather than a string, as the string authsvc
 * stores (then checked by its format): Keycloak's credential ({secretData, credentialData}, or flat
 * {algorithm, hashIterations, salt, value}) or Auth0's custom_password_hash ({algorithm, hash: {…}}).
 * Or why it is refused.
 */
export function hashObjectToStored(o: Record<string, unknown>): { hash: string } | { refused: string } {
  if (o.hash && typeof o.hash === "object") return auth0HashToStored(o);
  if (o.secretData !== undefined || o.credentialData !== undefined || o.hashIterations !== undefined) return keycloakCredentialToPhc(o);
  return { refused: "an object that is neither a Keycloak credential (secretData, credentialData) nor an Auth0 custom_password_hash (algorithm, hash)" };
}
