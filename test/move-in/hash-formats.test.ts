import { describe, expect, it } from "vitest";
import { checkStoredHashFormat, verifyPassword } from "../../src/core/passwords.js";
import { hashObjectToStored, importedHashFormat, IMPORTED_HASH_FORMATS } from "../../src/core/hash-formats/index.js";
import { systemFixture, vectors } from "./vectors.js";

const CURRENT = 4;
// Real hashes at the costs their systems write (passlib's phpass: 2^19 MD5 rounds per check): on a
// machine shared with other work a check can take several seconds; the time is not what is tested.
const SLOW = 120_000;

describe("imported hash formats: known answers from independent implementations and the systems' own code", () => {
  const list = vectors();
  it("covers every format authsvc reads", () => {
    expect(new Set(list.map((v) => importedHashFormat(v.stored)?.id))).toEqual(new Set(IMPORTED_HASH_FORMATS.map((f) => f.id)));
  });
  it.each(list.map((v) => [`${v.format} (${v.madeBy}): ${v.stored.slice(0, 24)}…`, v] as const))("%s", async (_name, v) => {
    expect(checkStoredHashFormat(v.stored)).toBeNull();
    expect(await verifyPassword(v.password, v.stored, CURRENT)).toMatchObject({ ok: true, needsRehash: true });
    // One wrong password: a character more (a shorter one is refused by sign-in.test.ts through HTTP).
    expect((await verifyPassword(v.password + "x", v.stored, CURRENT)).ok).toBe(false);
  }, SLOW);
  it.each(systemFixture.mismatches.map((v) => [`${v.madeBy}: ${v.passwordHash.slice(0, 24)}…`, v] as const))("does not match: %s", async (_name, v) => {
    expect(checkStoredHashFormat(v.passwordHash)).toBeNull();
    expect((await verifyPassword(v.password, v.passwordHash, CURRENT)).ok).toBe(false);
  });
  it.each(systemFixture.refused.map((v) => [`${v.madeBy}: ${v.passwordHash.slice(0, 24)}…`, v] as const))("refused: %s", async (_name, v) => {
    expect(checkStoredHashFormat(v.passwordHash)).toMatch(new RegExp(v.why));
    expect(await verifyPassword("anything", v.passwordHash, CURRENT)).toEqual({ ok: false, needsRehash: false, workCost: 0 });
  });
});

describe("hostile or malformed parameters are refused at import naming the parameter, and never computed", () => {
  const salt = "c29tZXNhbHRzb21lc2FsdA", hash = "aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g";
  const aspnet = (prf: number, iterations: number) => Buffer.concat([Buffer.from([1, 0, 0, 0, prf]), Buffer.from([iterations >>> 24, (iterations >>> 16) & 255, (iterations >>> 8) & 255, iterations & 255]), Buffer.from([0, 0, 0, 16]), Buffer.alloc(48, 7)]).toString("base64");
  it.each([
    ["$argon2id$v=19$m=4194304,t=3,p=4$" + salt + "$" + hash, /Argon2 hash: memory m=4194304 KiB is out of bounds/],
    ["$argon2id$v=19$m=65536,t=1000,p=1$" + salt + "$" + hash, /Argon2 hash: passes t=1000 is out of bounds/],
    ["$argon2id$v=19$m=262144,t=16,p=1$" + salt + "$" + hash, /Argon2 hash: work m×t = 4,194,304 is out of bounds/],
    ["$argon2id$v=19$m=64,t=1,p=16$" + salt + "$" + hash, /less than 8 KiB per lane \(p=16\)/],
    ["argon2$argon2id$v=19$m=4194304,t=3,p=4$" + salt + "$" + hash, /Django argon2 hash: memory m=4194304/],
    ["$scrypt$ln=24,r=8,p=1$" + salt + "$" + hash, /scrypt hash: memory 128·N·r/],
    ["$scrypt$ln=15,r=8,p=16$" + salt + "$" + hash, /scrypt hash: work N·r·p = 4,194,304 is out of bounds/],
    ["$scrypt$ln=16385,r=8,p=1$" + salt + "$" + hash, /N=16385 is not a power of two/],
    ["$scrypt$ln=1073741825,r=8,p=1$" + salt + "$" + hash, /scrypt hash: ln=1073741825 is not a whole number/],
    ["$scrypt$ln=14,r=2000,p=1$" + salt + "$" + hash, /scrypt hash: r=2000 is not a whole number/],
    ["$scrypt$ln=14,r=8,p=x$" + salt + "$" + hash, /scrypt hash: p=x is not a whole number/],
    ["$fbscrypt$v=1,n=22,r=8,p=1,ss=Bw==,sk=" + hash + "$" + salt + "$" + hash, /Firebase scrypt hash: memory/],
    ["$fbscrypt$v=1,n=99,r=8,p=1,ss=Bw==,sk=" + hash + "$" + salt + "$" + hash, /Firebase scrypt hash: mem cost n=99/],
    ["pbkdf2_sha256$100000000$abc$" + Buffer.alloc(32).toString("base64"), /Django PBKDF2 hash: 100000000 iterations of HMAC-SHA256 is out of bounds \(at most 3,000,000\)/],
    ["$pbkdf2-sha512$i=50000000$" + salt + "$" + hash, /PBKDF2 hash: 50000000 iterations of HMAC-SHA512/],
    ["$pbkdf2-sha1$i=1000000,l=64$" + salt + "$" + Buffer.alloc(64).toString("base64"), /1000000 iterations × 4 blocks \(a 64-byte key\) of HMAC-SHA1 is out of bounds/],
    ["$pbkdf2-md4$i=1000$" + salt + "$" + hash, /digest md4 is not one authsvc computes/],
    [aspnet(2, 100_000_000), /ASP.NET Identity hash \(v3\): 100000000 iterations of HMAC-SHA512 is out of bounds/],
    [aspnet(7, 1000), /ASP.NET Identity hash \(v3\): PRF 7 is not/],
    ["$P$" + "S" + "a".repeat(30), /phpass hash: 2\^30 iterations \(\$P\$S\) is out of bounds \(2\^7 to 2\^19\)/],
    ["$2b$31$" + "a".repeat(53), /bcrypt cost 31 is out of bounds \(4 to 16\)/],
    ["$wp$2y$17$" + "a".repeat(53), /WordPress \$wp\$ hash: bcrypt cost 17 is out of bounds/],
    ["{CRYPT}abcdefgh", /scheme \{CRYPT\} is not one of/],
    ['$auth0${"algorithm":"scrypt","hash":{"value":"00","encoding":"hex"},"keylen":1,"cost":4096}', /keylen 1 is not a whole number/],
    ['$auth0${"algorithm":"scrypt","hash":{"value":"' + "00".repeat(32) + '","encoding":"hex"},"keylen":32,"cost":1048576}', /custom_password_hash \(scrypt\): memory 128·N·r/],
    ['$auth0${"algorithm":"md5","hash":{"value":"abc","encoding":"utf8"}}', /hash.encoding must be hex or base64/],
    ['$auth0${"algorithm":"hmac","hash":{"value":"00","encoding":"hex","digest":"md2","key":{"value":"k"}}}', /hash.digest must be one of/],
    ["md5$abc$def", /no format authsvc reads/],
  ])("%s", async (stored, why) => {
    expect(checkStoredHashFormat(stored)).toMatch(why);
    expect(await verifyPassword("anything", stored, CURRENT)).toEqual({ ok: false, needsRehash: false, workCost: 0 });
  });

  it("Keycloak and Auth0 objects are refused naming the field", () => {
    expect(hashObjectToStored({ type: "password", secretData: '{"value":"AAAA","salt":"AAAA"}', credentialData: '{"hashIterations":5,"algorithm":"argon2","additionalParameters":{"type":["x"]}}' })).toEqual({ refused: 'Keycloak Argon2 credential: type "x" is not one of id, i, d' });
    expect(hashObjectToStored({ type: "password", secretData: '{"value":"AAAA","salt":"AAAA"}', credentialData: '{"hashIterations":1,"algorithm":"md5"}' })).toMatchObject({ refused: expect.stringContaining('algorithm "md5" is not one of pbkdf2, pbkdf2-sha256, pbkdf2-sha512, argon2') });
    expect(hashObjectToStored({ algorithm: "whirlpool", hash: { value: "00", encoding: "hex" } })).toMatchObject({ refused: expect.stringContaining('algorithm "whirlpool" is not one of') });
    expect(hashObjectToStored({ algorithm: "pbkdf2", hash: { value: "$pbkdf2-sha512$i=1$c2FsdA$aGFzaA" }, salt: { value: "x" } })).toMatchObject({ refused: expect.stringContaining("salt is not allowed") });
    expect(hashObjectToStored({ algorithm: "md5", hash: { value: "00", encoding: "hex" }, salt: { value: "x", position: "middle" } })).toEqual({ refused: "custom_password_hash.salt.position must be prefix or suffix" });
    expect(hashObjectToStored({ nothing: 1 })).toMatchObject({ refused: expect.stringContaining("neither a Keycloak credential") });
  });
});
