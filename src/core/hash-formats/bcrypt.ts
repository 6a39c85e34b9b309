import { createHash } from "node:crypto";
import { passwordHasher } from "../hash-pool.js";
import type { HashFormat } from "./types.js";

/** Costs above this are refused without computing (a hostile imported hash would take hours). */
export const MAX_BCRYPT_COST = 16;
const BCRYPT = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;

function checkBcrypt(hash: string, what: string): string | null {
  const m = BCRYPT.exec(hash);
  if (!m) return `${what} is not $2a$, $2b$ or $2y$ with 60 characters`;
  const cost = Number(m[1]);
  return cost < 4 || cost > MAX_BCRYPT_COST ? `${what} has bcrypt cost ${cost}; accepted: 4 to ${MAX_BCRYPT_COST}` : null;
}

/** The bcrypt cost of a plain or Django-wrapped bcrypt hash. */
export function bcryptCost(hash: string): number | undefined {
  const m = /^(?:bcrypt_sha256\$)?\$2[aby]\$(\d\d)\$/.exec(hash);
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
