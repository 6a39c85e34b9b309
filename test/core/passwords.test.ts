import { describe, expect, it } from "vitest";
import { checkNewPassword, checkPasswordPolicy, createDummyHash, hashCost, hashPassword, verifyPassword } from "../../src/core/passwords.js";
import { createBreachedCheck } from "../../src/protection/breached/check.js";
import { testConfig } from "../../src/config.js";
import { systemClock } from "../../src/util/clock.js";
import { createLogger } from "../../src/util/logger.js";
import { hash as plainBcrypt, verify as plainVerify } from "@node-rs/bcrypt";

const policy = { minLength: 8, email: "ada@example.com" };

describe("password policy", () => {
  it("counts Unicode code points: 8 emoji pass, 7 do not", () => {
    expect(checkPasswordPolicy("😀".repeat(8), policy)).toBeNull();
    expect(checkPasswordPolicy("😀".repeat(7), policy)).toMatch(/at least 8 characters/);
  });
  it("caps length in UTF-8 bytes, not characters", () => {
    expect(checkPasswordPolicy("😀".repeat(256), policy)).toBeNull(); // 1024 bytes
    expect(checkPasswordPolicy("😀".repeat(256) + "a", policy)).toMatch(/at most 1024 bytes/);
  });
  it("accepts exactly the configured minimum and refuses one less", () => {
    expect(checkPasswordPolicy("abcdefghijklmno", { minLength: 15 })).toBeNull();
    expect(checkPasswordPolicy("abcdefghijklmn", { minLength: 15 })).toMatch(/at least 15 characters/);
  });
  it("counts surrounding spaces as part of the password (no trimming)", () => {
    expect(checkPasswordPolicy("  zq7vw  ", policy)).toBeNull(); // 9 code points with the spaces
    expect(checkPasswordPolicy(" zq7vw ", policy)).toMatch(/at least 8/);
  });
  it("refuses a lone surrogate instead of hashing mangled text", () => {
    expect(checkPasswordPolicy("abcdefgh\ud800", policy)).toMatch(/invalid Unicode/);
  });
  it("leaves common passwords to the rooms' checks, which every new password passes after it", async () => {
    expect(checkPasswordPolicy("PassWord123", policy)).toBeNull();
    const shipped = createBreachedCheck(testConfig({ breachedPasswords: "offline" }), { logger: createLogger("silent"), clock: systemClock });
    expect(await checkNewPassword([shipped], "PassWord123", policy)).toMatch(/data breach/);
    expect(await checkNewPassword([shipped], "short", policy)).toMatch(/at least 8/);
    expect(await checkNewPassword([shipped], "correct horse battery staple", policy)).toBeNull();
  });
  it("refuses a password that contains the email address", () => {
    expect(checkPasswordPolicy("my ada@example.com pw", policy)).toMatch(/email/);
    // Without an email (unknown account) the check cannot apply.
    expect(checkPasswordPolicy("ada@example.com", { minLength: 8 })).toBeNull();
  });
  it("has no composition rules", () => {
    expect(checkPasswordPolicy("correct horse battery staple", policy)).toBeNull();
  });
  it("refuses the email or its local part", () => {
    expect(checkPasswordPolicy("ada@example.com", policy)).toMatch(/email/);
    expect(checkPasswordPolicy("ADA@example.com", { ...policy, email: "ada@example.com" })).toMatch(/email/);
    expect(checkPasswordPolicy("adalovelace", { ...policy, email: "adalovelace@example.com" })).toMatch(/email/);
  });
});

describe("password hashing", () => {
  it("counts bytes past bcrypt's 72: two 80-byte passwords differing after byte 72 do not verify each other", async () => {
    const a = "x".repeat(75) + "aaaaa";
    const b = "x".repeat(75) + "bbbbb";
    const h = await hashPassword(a, 4);
    expect((await verifyPassword(a, h, 4)).ok).toBe(true);
    expect((await verifyPassword(b, h, 4)).ok).toBe(false);
  });
  it("counts bytes past 72 for multi-byte passwords too: 18 emoji + a vs 18 emoji + b", async () => {
    const a = "😀".repeat(18) + "a"; // 72 bytes of emoji, then the difference
    const h = await hashPassword(a, 4);
    expect((await verifyPassword(a, h, 4)).ok).toBe(true);
    expect((await verifyPassword("😀".repeat(18) + "b", h, 4)).ok).toBe(false);
  });
  it("salts every hash and records scheme and cost in it", async () => {
    const [h1, h2] = await Promise.all([hashPassword("correct horse battery staple", 4), hashPassword("correct horse battery staple", 4)]);
    expect(h1).not.toBe(h2);
    expect(h1).toMatch(/^bcrypt-sha384:\$2[aby]\$04\$/);
    expect(hashCost(h1)).toBe(4);
    expect(hashCost("$2b$12$" + "a".repeat(53))).toBe(12);
    expect(hashCost("md5:abc")).toBeUndefined();
  });
  it("makes the unknown-address dummy without hashing, yet bcrypt computes it in full at the current cost", async () => {
    const [d1, d2] = await Promise.all([createDummyHash(6), createDummyHash(6)]);
    expect(d1).not.toBe(d2);
    expect(d1).toMatch(/^bcrypt-sha384:\$2b\$06\$[./A-Za-z0-9]{53}$/);
    expect(hashCost(d1)).toBe(6);
    // bcrypt itself accepts it (a malformed one would throw, and verifyPassword would answer at once).
    await expect(plainVerify("anything", d1.slice("bcrypt-sha384:".length))).resolves.toBe(false);
    expect(await verifyPassword("anything", d1, 6)).toEqual({ ok: false, needsRehash: false, workCost: 6 });
    // Its time is a real hash's at the same cost (a hash bcrypt refused would take next to nothing).
    // The fastest of 3 runs each: noise on a shared machine only ever adds time.
    const time = async (h: string) => {
      let best = Infinity;
      for (let i = 0; i < 3; i++) { const t = performance.now(); await plainVerify("x", h.slice("bcrypt-sha384:".length)); best = Math.min(best, performance.now() - t); }
      return best;
    };
    const dummy8 = await createDummyHash(8);
    const real8 = await hashPassword("a real password", 8);
    const [td, tr] = [await time(dummy8), await time(real8)];
    expect(td).toBeGreaterThan(tr / 3);
  });
  it("rejects garbage instead of throwing", async () => {
    expect(await verifyPassword("x", "not a hash", 4)).toEqual({ ok: false, needsRehash: false, workCost: 0 });
    expect(await verifyPassword("x", "bcrypt-sha384:$2b$04$short", 4)).toEqual({ ok: false, needsRehash: false, workCost: 0 });
  });
  it("keeps surrounding spaces: the trimmed form does not verify", async () => {
    const h = await hashPassword("  pass phrase  ", 4);
    expect((await verifyPassword("  pass phrase  ", h, 4)).ok).toBe(true);
    expect((await verifyPassword("pass phrase", h, 4)).ok).toBe(false);
  });
  it("treats composed and decomposed accents as the same password", async () => {
    const h = await hashPassword("caf\u00e9 au lait", 4);
    expect((await verifyPassword("cafe\u0301 au lait", h, 4)).ok).toBe(true);
  });
  it("verifies imported plain bcrypt hashes and asks for a rehash", async () => {
    const imported = await plainBcrypt("hunter2hunter2", { cost: 4 });
    expect(await verifyPassword("hunter2hunter2", imported, 4)).toEqual({ ok: true, needsRehash: true, workCost: 4 });
    expect((await verifyPassword("hunter2hunter3", imported, 4)).ok).toBe(false);
  });
  it("asks for a rehash when the configured cost changed", async () => {
    const h = await hashPassword("correct horse battery staple", 4);
    expect(await verifyPassword("correct horse battery staple", h, 5)).toEqual({ ok: true, needsRehash: true, workCost: 5 });
    expect(await verifyPassword("correct horse battery staple", h, 4)).toEqual({ ok: true, needsRehash: false, workCost: 4 });
  });
  it("refuses absurd costs without computing them", async () => {
    // Computing cost 31 would take days: the test would time out rather than pass.
    expect((await verifyPassword("x", "$2b$31$" + "a".repeat(53), 4)).ok).toBe(false);
  });
});

describe("a hash below the current cost is checked in the time of the current cost", () => {
  // What a user could measure is the time of a sign-in, which follows the highest bcrypt cost the
  // check computed (workCost): an imported $2b$04$ account must not answer at cost 4 while every
  // other account, and an unknown address, answers at the current cost.
  const CURRENT = 6;
  it("an imported plain bcrypt hash at cost 4: right and wrong password both work at the current cost, and a success asks for the rehash", async () => {
    const imported = await plainBcrypt("imported password", { cost: 4 });
    expect(await verifyPassword("imported password", imported, CURRENT)).toEqual({ ok: true, needsRehash: true, workCost: CURRENT });
    expect(await verifyPassword("wrong password", imported, CURRENT)).toEqual({ ok: false, needsRehash: false, workCost: CURRENT });
  });
  it("ours from before the cost was raised: padded the same way", async () => {
    const old = await hashPassword("old password", 4);
    expect(await verifyPassword("old password", old, CURRENT)).toEqual({ ok: true, needsRehash: true, workCost: CURRENT });
    expect(await verifyPassword("nope", old, CURRENT)).toEqual({ ok: false, needsRehash: false, workCost: CURRENT });
  });
  it("a hash at or above the current cost is checked as it is (it cannot be made faster)", async () => {
    const ours = await hashPassword("current password", CURRENT);
    expect(await verifyPassword("current password", ours, CURRENT)).toEqual({ ok: true, needsRehash: false, workCost: CURRENT });
    const higher = await plainBcrypt("higher password", { cost: 7 });
    expect(await verifyPassword("higher password", higher, CURRENT)).toEqual({ ok: true, needsRehash: true, workCost: 7 });
  });
});
