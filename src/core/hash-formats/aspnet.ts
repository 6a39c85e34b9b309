import { decodeStandardBase64 } from "./encoding.js";
import { checkPbkdf2, verifyPbkdf2, type Pbkdf2Params } from "./pbkdf2.js";
import type { HashFormat } from "./types.js";

/** KeyDerivationPrf, as the v3 header numbers it. */
const PRF: readonly string[] = ["sha1", "sha256", "sha512"];

/**
 * ASP.NET Core Identity's PasswordHash (PasswordHasher<TUser>): the base64 of a version byte and
 * what follows it. v2 (0x00): a 16-byte salt and a 32-byte PBKDF2-HMAC-SHA1 key at 1,000
 * iterations. v3 (0x01): big-endian UInt32s for the PRF (0 SHA-1, 1 SHA-256, 2 SHA-512), the
 * iteration count and the salt's length, then the salt (at least 16 bytes) and the key (the rest,
 * at least 16 bytes): HMAC-SHA512 at 100,000 since .NET 7, HMAC-SHA256 at 10,000 before. The
 * password is hashed as UTF-8.
 */
function parse(h: string): (Pbkdf2Params & { version: 2 | 3 }) | string {
  const b = decodeStandardBase64(h);
  const what = "ASP.NET Identity hash";
  if (!b) return `${what} is not base64`;
  if (b[0] === 0x00) {
    if (b.length !== 49) return `${what} (v2) is not 49 bytes (version, 16-byte salt, 32-byte key)`;
    return { version: 2, digest: "sha1", iterations: 1000, salt: b.subarray(1, 17), key: b.subarray(17) };
  }
  if (b[0] !== 0x01) return `${what}: version byte ${b[0]} is neither 0 (v2) nor 1 (v3)`;
  if (b.length < 13 + 16 + 16) return `${what} (v3) is shorter than its header, a 16-byte salt and a 16-byte key`;
  const prf = b.readUInt32BE(1), iterations = b.readUInt32BE(5), saltLength = b.readUInt32BE(9);
  if (prf >= PRF.length) return `${what} (v3): PRF ${prf} is not 0 (HMAC-SHA1), 1 (HMAC-SHA256) or 2 (HMAC-SHA512)`;
  if (saltLength < 16 || 13 + saltLength + 16 > b.length) return `${what} (v3): salt length ${saltLength} leaves no 16-byte key (or is under 16)`;
  return { version: 3, digest: PRF[prf], iterations, salt: b.subarray(13, 13 + saltLength), key: b.subarray(13 + saltLength) };
}

export const aspnetIdentity: HashFormat = {
  id: "aspnet-identity",
  // Base64 starting with a 0x00 or 0x01 byte ("A"), long enough for v2 or v3, and nothing else.
  matches: (h) => /^A[A-Za-z0-9+/]{40,}={0,2}$/.test(h),
  check(h) {
    const p = parse(h);
    return typeof p === "string" ? p : checkPbkdf2(p, `ASP.NET Identity hash (v${p.version})`);
  },
  async verify(password, h) {
    const p = parse(h);
    return typeof p !== "string" && verifyPbkdf2(password, p);
  },
};
