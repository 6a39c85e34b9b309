import { readFileSync } from "node:fs";
import { hashObjectToStored, toFbScrypt } from "../../src/core/hash-formats/index.js";

/**
 * Known-answer vectors: hash-vectors.json (made by make-hash-vectors.py with passlib, argon2-cffi
 * and hashlib) and system-vectors.json (made by each system's own code or taken from its own tests
 * and documentation; test/fixtures/move-in/README.md says how).
 */
interface RawVector { format: string; password: string; passwordHash: string | Record<string, unknown>; madeBy: string }
interface Fixture {
  vectors: RawVector[];
  firebase: { hashConfig: { base64_signer_key: string; base64_salt_separator: string; rounds: number; mem_cost: number }; password: string; salt: string; passwordHash: string };
}
interface SystemFixture {
  vectors: RawVector[];
  /** Well-formed hashes that the given password must not match. */
  mismatches: Array<{ password: string; passwordHash: string; madeBy: string }>;
  /** Hashes refused at import, and a part of why (a regular expression). */
  refused: Array<{ passwordHash: string; why: string; madeBy: string }>;
}

const read = <T>(name: string): T => JSON.parse(readFileSync(new URL(`../fixtures/move-in/${name}`, import.meta.url), "utf8"));
export const fixture = read<Fixture>("hash-vectors.json");
export const systemFixture = read<SystemFixture>("system-vectors.json");

export interface Vector { format: string; madeBy: string; password: string; stored: string; raw: string | Record<string, unknown> }

/** The string authsvc stores for a hash as another system exported it (an object: Keycloak's credential, Auth0's custom hash). */
export function storedOf(raw: string | Record<string, unknown>): string {
  if (typeof raw === "string") return raw;
  const r = hashObjectToStored(raw);
  if ("refused" in r) throw new Error(r.refused);
  return r.hash;
}

/** Every vector as the string authsvc stores (Keycloak's credentials, Auth0's objects and Firebase's user turned into theirs). */
export function vectors(): Vector[] {
  const list = [...fixture.vectors, ...systemFixture.vectors].map((v) => ({ format: v.format, madeBy: v.madeBy, password: v.password, stored: storedOf(v.passwordHash), raw: v.passwordHash }));
  const fb = fixture.firebase;
  const config = { signerKey: fb.hashConfig.base64_signer_key, saltSeparator: fb.hashConfig.base64_salt_separator, rounds: fb.hashConfig.rounds, memCost: fb.hashConfig.mem_cost };
  list.push({ format: "firebase-scrypt", madeBy: "firebase/scrypt's README example", password: fb.password, stored: toFbScrypt(fb.passwordHash, fb.salt, config), raw: toFbScrypt(fb.passwordHash, fb.salt, config) });
  return list;
}
