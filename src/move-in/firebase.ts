import { readFileSync } from "node:fs";
import { toFbScrypt, type FirebaseHashConfig } from "../core/hash-formats/index.js";
import { compact, jsonObject, millis, MoveInError, providerId, toInputs, type SourceRecord } from "./common.js";
import type { MoveInSource } from "./source.js";

/**
 * Reads the console's "Password hash parameters" block exactly as shown:
 * `hash_config { algorithm: SCRYPT, base64_signer_key: …, base64_salt_separator: …, rounds: 8, mem_cost: 14 }`.
 */
export function parseFirebaseHashConfig(text: string): FirebaseHashConfig {
  const fields = new Map<string, string>();
  for (const m of text.replace(/^\s*hash_config\s*\{/, "").replace(/\}\s*$/, "").matchAll(/([a-z_0-9]+)\s*:\s*("?)([^,\s"}]+)\2/gi)) fields.set(m[1].toLowerCase(), m[3]);
  const bad = (why: string): never => { throw new MoveInError(`--firebase-hash-config: ${why} (copy the hash_config { … } block from the console's "Password hash parameters")`); };
  if ((fields.get("algorithm") ?? "").toUpperCase() !== "SCRYPT") bad(`algorithm is ${fields.get("algorithm") ?? "missing"}, not SCRYPT`);
  const base64 = (k: string) => { const v = fields.get(k); return v && /^[A-Za-z0-9+/_-]+={0,2}$/.test(v) ? v : bad(`${k} is missing or not base64`); };
  const int = (k: string, max: number) => { const v = Number(fields.get(k)); return Number.isInteger(v) && v >= 1 && v <= max ? v : bad(`${k} is missing or not a whole number from 1 to ${max}`); };
  return { signerKey: base64("base64_signer_key"), saltSeparator: base64("base64_salt_separator"), rounds: int("rounds", 32), memCost: int("mem_cost", 20) };
}

/**
 * Firebase Authentication: `firebase auth:export users.json --format=json` ({"users": […]}) with
 * the project's hash parameters (`--firebase-hash-config FILE`). Each password hash and salt
 * becomes one `$fbscrypt$` string carrying the project's parameters. The uid (localId) is kept
 * as the id; providerUserInfo entries (google.com, github.com, apple.com…) become third-party
 * logins with their rawId; customAttributes become metadata. Firebase exports no TOTP secrets.
 */
export const firebase: MoveInSource = {
  id: "firebase",
  files: "the auth:export JSON file",
  async *read(files, options) {
    if (!options.firebaseHashConfig) throw new MoveInError("--from firebase needs --firebase-hash-config FILE (the console's hash_config { … } block), or its users' password hashes cannot be read");
    const config = parseFirebaseHashConfig(options.firebaseHashConfig);
    const records: Array<{ where: string; record: SourceRecord }> = [];
    for (const file of files) {
      let doc: unknown;
      try { doc = JSON.parse(readFileSync(file, "utf8").replace(/^\uFEFF/, "")); } catch { throw new MoveInError(`${file} is not JSON (give the file of firebase auth:export --format=json)`); }
      const users = jsonObject(doc)?.users;
      if (!Array.isArray(users)) throw new MoveInError(`${file} has no "users" list (give the file of firebase auth:export --format=json)`);
      users.forEach((raw, i) => {
        const u = jsonObject(raw) ?? {};
        const email = typeof u.email === "string" ? u.email : undefined;
        const verified = u.emailVerified === true;
        const joined = millis(u.createdAt);
        const methods: SourceRecord[] = [];
        if (typeof u.passwordHash === "string" && typeof u.salt === "string") {
          methods.push({ recipeId: "emailpassword", email, verified, passwordHash: toFbScrypt(u.passwordHash, u.salt, config), timeJoined: joined });
        }
        for (const p of Array.isArray(u.providerUserInfo) ? u.providerUserInfo.map(jsonObject) : []) {
          if (!p || p.providerId === "password" || p.providerId === "phone" || typeof p.rawId !== "string") continue;
          methods.push({ recipeId: "thirdparty", email: typeof p.email === "string" ? p.email : email, verified, thirdParty: { id: providerId(String(p.providerId)), userId: p.rawId }, timeJoined: joined });
        }
        if (methods.length === 0 && email) methods.push({ recipeId: "passwordless", email, verified, timeJoined: joined });
        records.push({ where: `${file} users[${i}]`, record: compact({ id: u.localId, email, verified, timeJoined: joined, loginMethods: methods, metadata: jsonObject(u.customAttributes) }) });
      });
    }
    yield* toInputs(records);
  },
};
