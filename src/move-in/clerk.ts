import { toFbScrypt } from "../core/hash-formats/index.js";
import type { ImportFact } from "../core/import-parts.js";
import { compact, jsonObject, millis, streamCsv, toInput } from "./common.js";
import type { MoveInSource } from "./source.js";

/**
 * Clerk's `password_hasher` names whose `password_digest` is already a string core/hash-formats/
 * reads as it is (Clerk's documented digest forms: bcrypt's `$2…`, Django's `bcrypt_sha256$…` and
 * `pbkdf2_sha256$…`, Argon2's PHC string, phpass's `$P$…`).
 */
const AS_IS = new Set(["bcrypt", "bcrypt_sha256_django", "argon2i", "argon2id", "pbkdf2_sha256_django", "phpass"]);

/** A Clerk digest as a hash we read, or why not (the row is then refused, not imported without its password). */
function digest(hasher: string, value: string): { hash: string } | { refused: string } {
  if (AS_IS.has(hasher)) return { hash: value };
  if (hasher === "scrypt_firebase") {
    // Clerk's form: hash$salt$signer key$salt separator$rounds$mem cost (six $-separated parts).
    const [hash, salt, signerKey, saltSeparator, rounds, memCost] = value.split("$");
    if ([hash, salt, signerKey, saltSeparator].some((p) => !p) || !/^\d{1,2}$/.test(rounds ?? "") || !/^\d{1,2}$/.test(memCost ?? "")) return { refused: "password_digest for scrypt_firebase is not hash$salt$signer key$salt separator$rounds$mem cost" };
    return { hash: toFbScrypt(hash, salt, { signerKey, saltSeparator, rounds: Number(rounds), memCost: Number(memCost) }) };
  }
  return { refused: `password_hasher ${JSON.stringify(hasher)} is not one authsvc reads (bcrypt, bcrypt_sha256_django, argon2i, argon2id, pbkdf2_sha256_django, phpass, scrypt_firebase)` };
}

/** A cell listing addresses (Clerk separates them with commas, some exports with |). */
const addresses = (cell: string | undefined) => (cell ?? "").split(/[,|]/).map((e) => e.trim().toLowerCase()).filter(Boolean);

/**
 * Clerk: the users CSV of the Dashboard's "Export users" (id, first_name, last_name, username,
 * primary_email_address, primary_phone_number, verified_email_addresses,
 * unverified_email_addresses, verified_phone_numbers, unverified_phone_numbers, totp_secret,
 * password_digest, password_hasher; metadata columns read when present). The id (user_…) is kept;
 * the primary address is the login, verified when it is among verified_email_addresses; the digest
 * is kept in the form password_hasher names (without one, the address alone); the authenticator
 * secret is kept; names and the other addresses become metadata. The CSV holds no social accounts
 * and no backup codes.
 */
export const clerk: MoveInSource = {
  id: "clerk",
  files: "the users CSV of the Clerk Dashboard's export",
  async *read(files) {
    let n = 0;
    for (const file of files) {
      for await (const { line, row: u } of streamCsv(file)) {
        const where = `${file} line ${line}`;
        n++;
        const email = (u.primary_email_address ?? "").trim().toLowerCase() || undefined;
        if (!email) { yield { line: n, where, refused: `user ${u.id} has no primary_email_address (authsvc signs people in by address; phone numbers and usernames alone do not move)` }; continue; }
        const verifiedList = addresses(u.verified_email_addresses);
        const verified = verifiedList.includes(email);
        const facts: ImportFact[] = [];
        if (u.password_digest) {
          const d = digest((u.password_hasher || "bcrypt").trim(), u.password_digest.trim());
          if ("refused" in d) { yield { line: n, where, refused: d.refused }; continue; }
          facts.push({ fact: "password-hash", email, verified, hash: d.hash });
        } else {
          facts.push({ fact: "address-only", email, verified });
        }
        const others = [...new Set([...verifiedList, ...addresses(u.unverified_email_addresses)])].filter((a) => a !== email);
        const metadata = compact({
          first_name: u.first_name || undefined, last_name: u.last_name || undefined, username: u.username || undefined,
          phone_number: u.primary_phone_number || undefined, other_email_addresses: others.length ? others : undefined,
          public_metadata: jsonObject(u.public_metadata), private_metadata: jsonObject(u.private_metadata), unsafe_metadata: jsonObject(u.unsafe_metadata),
        });
        if (u.totp_secret) facts.push({ fact: "authenticator-secret", secret: u.totp_secret });
        yield toInput(n, where, { id: u.id || undefined, email, verified, timeJoined: millis(u.created_at), facts, metadata });
      }
    }
  },
};
