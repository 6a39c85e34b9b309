import { describe, expect, it } from "vitest";
import { checkStoredHashFormat, verifyPassword } from "../../src/core/passwords.js";
import { importedHashFormat } from "../../src/core/hash-formats/index.js";
import { vectors } from "./vectors.js";

const CURRENT = 4;

describe("imported hash formats: known answers from independent implementations", () => {
  const list = vectors();
  it("covers every format authsvc reads", () => {
    expect(new Set(list.map((v) => importedHashFormat(v.stored)?.id))).toEqual(new Set([
      "bcrypt", "django-bcrypt-sha256", "argon2", "scrypt", "better-auth-scrypt", "firebase-scrypt", "django-pbkdf2", "pbkdf2", "phpass",
    ]));
  });
  it.each(list.map((v) => [`${v.format} (${v.madeBy}): ${v.stored.slice(0, 24)}…`, v] as const))("%s", async (_name, v) => {
    expect(checkStoredHashFormat(v.stored)).toBeNull();
    expect(await verifyPassword(v.password, v.stored, CURRENT)).toMatchObject({ ok: true, needsRehash: true });
    expect((await verifyPassword(v.password + "x", v.stored, CURRENT)).ok).toBe(false);
    expect((await verifyPassword(v.password.slice(0, -1), v.stored, CURRENT)).ok).toBe(false);
  });
});

describe("hostile or malformed parameters are refused at import, and never computed", () => {
  const salt = "c29tZXNhbHRzb21lc2FsdA", hash = "aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g";
  it.each([
    ["$argon2id$v=19$m=4194304,t=3,p=4$" + salt + "$" + hash, /Argon2 memory m=4194304 KiB is out of bounds/],
    ["$argon2id$v=19$m=65536,t=100,p=1$" + salt + "$" + hash, /Argon2 passes t=100 is out of bounds/],
    ["$argon2id$v=19$m=262144,t=16,p=1$" + salt + "$" + hash, /Argon2 work/],
    ["$scrypt$ln=24,r=8,p=1$" + salt + "$" + hash, /memory 128·N·r/],
    ["$scrypt$ln=15,r=8,p=16$" + salt + "$" + hash, /work N·r·p/],
    ["$scrypt$ln=16385,r=8,p=1$" + salt + "$" + hash, /not a power of two/],
    ["$fbscrypt$v=1,n=22,r=8,p=1,ss=Bw==,sk=" + hash + "$" + salt + "$" + hash, /Firebase scrypt hash: memory/],
    ["pbkdf2_sha256$100000000$abc$" + Buffer.alloc(32).toString("base64"), /100000000 iterations is out of bounds/],
    ["$pbkdf2-sha512$i=50000000$" + salt + "$" + hash, /50000000 iterations/],
    ["$P$" + "S" + "a".repeat(30), /2\^30 iterations/],
    ["$2b$31$" + "a".repeat(53), /bcrypt cost 31/],
    ["md5$abc$def", /no format authsvc reads/],
  ])("%s", async (stored, why) => {
    expect(checkStoredHashFormat(stored)).toMatch(why);
    expect(await verifyPassword("anything", stored, CURRENT)).toEqual({ ok: false, needsRehash: false, workCost: 0 });
  });
});
