import { readFileSync } from "node:fs";
import { keycloakCredentialToPhc, toFbScrypt } from "../../src/core/hash-formats/index.js";

/** The known-answer vectors of test/fixtures/move-in/hash-vectors.json (made by make-hash-vectors.py). */
interface RawVector { format: string; password: string; passwordHash: string | Record<string, unknown>; madeBy: string }
interface Fixture {
  vectors: RawVector[];
  firebase: { hashConfig: { base64_signer_key: string; base64_salt_separator: string; rounds: number; mem_cost: number }; password: string; salt: string; passwordHash: string };
}

export const fixture: Fixture = JSON.parse(readFileSync(new URL("../fixtures/move-in/hash-vectors.json", import.meta.url), "utf8"));

export interface Vector { format: string; madeBy: string; password: string; stored: string; raw: string | Record<string, unknown> }

/** Every vector as the string authsvc stores (Keycloak's credential and Firebase's user turned into theirs). */
export function vectors(): Vector[] {
  const list = fixture.vectors.map((v) => {
    let stored: string;
    if (typeof v.passwordHash === "string") stored = v.passwordHash;
    else {
      const r = keycloakCredentialToPhc(v.passwordHash);
      if ("refused" in r) throw new Error(r.refused);
      stored = r.hash;
    }
    return { format: v.format, madeBy: v.madeBy, password: v.password, stored, raw: v.passwordHash };
  });
  const fb = fixture.firebase;
  const config = { signerKey: fb.hashConfig.base64_signer_key, saltSeparator: fb.hashConfig.base64_salt_separator, rounds: fb.hashConfig.rounds, memCost: fb.hashConfig.mem_cost };
  list.push({ format: "firebase-scrypt", madeBy: "firebase/scrypt's README example", password: fb.password, stored: toFbScrypt(fb.passwordHash, fb.salt, config), raw: toFbScrypt(fb.passwordHash, fb.salt, config) });
  return list;
}
