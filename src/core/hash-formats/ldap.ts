import { DIGEST_BYTES, digestOf } from "./digests.js";
import { decodeStandardBase64, sameBytes } from "./encoding.js";
import type { HashFormat } from "./types.js";

/** RFC 2307 userPassword schemes (OpenLDAP, 389 Directory Server): digest, and whether a salt follows it. */
const SCHEMES: Readonly<Record<string, { digest: string; salted: boolean }>> = {
  MD5: { digest: "md5", salted: false }, SMD5: { digest: "md5", salted: true },
  SHA: { digest: "sha1", salted: false }, SSHA: { digest: "sha1", salted: true },
  SHA256: { digest: "sha256", salted: false }, SSHA256: { digest: "sha256", salted: true },
  SHA384: { digest: "sha384", salted: false }, SSHA384: { digest: "sha384", salted: true },
  SHA512: { digest: "sha512", salted: false }, SSHA512: { digest: "sha512", salted: true },
};

interface Parsed { digest: string; hash: Buffer; salt: Buffer }

function parse(h: string): Parsed | string {
  const m = /^\{([A-Za-z0-9]+)\}(.*)$/s.exec(h);
  const scheme = m && SCHEMES[m[1].toUpperCase()];
  if (!m || !scheme) return `LDAP hash's scheme ${m ? `{${m[1]}}` : ""} is not one of ${Object.keys(SCHEMES).map((s) => `{${s}}`).join(", ")} ({CRYPT} depends on the system that wrote it)`;
  const bytes = decodeStandardBase64(m[2]);
  const n = DIGEST_BYTES[scheme.digest];
  if (!bytes) return `LDAP {${m[1]}} hash is not base64`;
  if (scheme.salted ? bytes.length <= n || bytes.length > n + 64 : bytes.length !== n) {
    return `LDAP {${m[1]}} hash is not ${scheme.salted ? `${n} bytes of digest and a salt of 1 to 64 bytes` : `${n} bytes`}`;
  }
  return { digest: scheme.digest, hash: bytes.subarray(0, n), salt: bytes.subarray(n) };
}

/** LDAP's {SSHA}-style hashes (RFC 2307 §5.3): base64 of digest(password ‖ salt) ‖ salt, or of digest(password); Auth0's `ldap`, Kratos' {SSHA…}. */
export const ldap: HashFormat = {
  id: "ldap",
  matches: (h) => /^\{[A-Za-z0-9]+\}/.test(h),
  check: (h) => {
    const p = parse(h);
    return typeof p === "string" ? p : null;
  },
  async verify(password, h) {
    const p = parse(h);
    return typeof p !== "string" && sameBytes(await digestOf(p.digest, Buffer.concat([Buffer.from(password, "utf8"), p.salt])), p.hash);
  },
};
