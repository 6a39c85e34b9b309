import { passwordHasher } from "../hash-pool.js";
import { sameBytes } from "./encoding.js";
import type { HashFormat } from "./types.js";

const ITOA64 = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/**
 * log2 of the MD5 iterations: phpass allows 7 to 30; WordPress writes 13 ($P$B), phpBB 11, passlib
 * 19 ($P$H, its default). 2^19 is about one bcrypt check at cost 14 (docs/moving-in.md, the bounds table).
 */
export const PHPASS_LOG2_BOUNDS = { min: 7, max: 19 };
const PHPASS = /^\$[PH]\$[./0-9A-Za-z]{31}$/;

/** WordPress's and phpBB's portable phpass hashes ($P$ / $H$): iterated salted MD5, on the hashing pool. */
export const phpass: HashFormat = {
  id: "phpass",
  matches: (h) => /^\$[PH]\$/.test(h),
  check(h) {
    if (!PHPASS.test(h)) return "phpass hash is not $P$ or $H$ with 31 characters after it";
    const log2 = ITOA64.indexOf(h[3]);
    return log2 < PHPASS_LOG2_BOUNDS.min || log2 > PHPASS_LOG2_BOUNDS.max ? `phpass hash: 2^${log2} iterations ($${h[1]}$${h[3]}) is out of bounds (2^${PHPASS_LOG2_BOUNDS.min} to 2^${PHPASS_LOG2_BOUNDS.max})` : null;
  },
  async verify(password, h) {
    if (phpass.check(h)) return false;
    return sameBytes(Buffer.from(await passwordHasher().phpass(password, h), "latin1"), Buffer.from(h, "latin1"));
  },
};
