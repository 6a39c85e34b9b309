import { createHash, createHmac } from "node:crypto";
import { passwordHasher } from "../hash-pool.js";
import type { HashFormat } from "./types.js";

/** The highest cost of authsvc's own hashes (the --bcrypt-cost setting's bound). */
export const MAX_BCRYPT_COST = 16;
/**
 * The costs an imported bcrypt hash may have: those of authsvc's own hashes. Every other format is
 * bounded to about one bcrypt check at cost 14 (docs/moving-in.md, the bounds table), but bcrypt
 * keeps 16: an imported bcrypt hash costs no more than one authsvc writes itself at --bcrypt-cost
 * 16, and a lower bound would lock out people whose hashes were imported under the earlier one.
 * Outside them a hash is refused without computing anything.
 */
export const IMPORTED_BCRYPT_COSTS = { min: 4, max: MAX_BCRYPT_COST };
const BCRYPT = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;

/** Why a bcrypt string ($2a$, $2b$, $2y$) is refused, or null; `what` names it in the sentence. */
export function checkBcrypt(hash: string, what: string): string | null {
  const m = BCRYPT.exec(hash);
  if (!m) return `${what} is not $2a$, $2b$ or $2y$ with 60 characters`;
  const cost = Number(m[1]);
  return cost < IMPORTED_BCRYPT_COSTS.min || cost > IMPORTED_BCRYPT_COSTS.max ? `${what}: bcrypt cost ${cost} is out of bounds (${IMPORTED_BCRYPT_COSTS.min} to ${IMPORTED_BCRYPT_COSTS.max})` : null;
}

/** The bcrypt cost of a plain, Django-wrapped or WordPress-wrapped bcrypt hash. */
export function bcryptCost(hash: string): number | undefined {
  const m = /^(?:bcrypt_sha256\$|\$wp)?\$2[aby]\$(\d\d)\$/.exec(hash);
  return m ? Number(m[1]) : undefined;
}

/** Plain bcrypt from elsewhere (Auth0, Supabase, Clerk, Laravel…): the first 72 bytes, as bcrypt always did. */
export const bcrypt: HashFormat = {
  id: "bcrypt",
  matches: (h) => /^\$2[aby]\$/.test(h),
  check: (h) => checkBcrypt(h, "bcrypt hash"),
  verify: (password, hash) => passwordHasher().verify(password, hash),
};

const DJANGO = "bcrypt_sha256$";

/** Django's BCryptSHA256PasswordHasher: bcrypt over the hex SHA-256 of the password. */
export const djangoBcryptSha256: HashFormat = {
  id: "django-bcrypt-sha256",
  matches: (h) => h.startsWith(DJANGO),
  check: (h) => checkBcrypt(h.slice(DJANGO.length), "Django bcrypt_sha256 hash"),
  verify: (password, hash) => passwordHasher().verify(createHash("sha256").update(password, "utf8").digest("hex"), hash.slice(DJANGO.length)),
};

const WORDPRESS = "$wp";

/**
 * WordPress 6.8 and later (`$wp$2y$10$…`): bcrypt of the base64 of HMAC-SHA384 (key "wp-sha384")
 * of the password, as wp_check_password checks it (the password as typed: wp_hash_password trims
 * it before hashing, but the check does not).
 */
export const wordpressBcrypt: HashFormat = {
  id: "wordpress-bcrypt",
  matches: (h) => h.startsWith(`${WORDPRESS}$`),
  check: (h) => checkBcrypt(h.slice(WORDPRESS.length), "WordPress $wp$ hash"),
  verify: (password, hash) => passwordHasher().verify(createHmac("sha384", "wp-sha384").update(password, "utf8").digest("base64"), hash.slice(WORDPRESS.length)),
};
