import { createRequire } from "node:module";
import { intIn, parseParams, decodeBase64, grouped } from "./encoding.js";
import type { HashFormat } from "./types.js";

/**
 * Bounds on imported Argon2 parameters: memory in KiB (256 MiB: Kratos writes 128 MiB, Django
 * 100 MiB, libsodium's "moderate" 256 MiB), passes, lanes (Kratos writes twice its cores, up to
 * 255), and memory × passes, which is what one check costs: 2^20 KiB-passes is about half a bcrypt
 * check at cost 14 (docs/moving-in.md, the bounds table; Keycloak's default is 7168 × 5, Django's
 * 102400 × 2, argon2-cffi's and PHP's 65536 × 3 and × 4).
 */
export const ARGON2_BOUNDS = { maxMemoryKiB: 262_144, maxPasses: 256, maxLanes: 255, maxWork: 1_048_576 };

const PHC = /^\$argon2(id|i|d)\$(?:v=(16|19)\$)?([^$]+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

type Argon2Module = { verify(hash: string, password: string | Uint8Array): Promise<boolean> };
let argon2Module: Argon2Module | undefined;
/** Loaded on first use: most servers never see an Argon2 hash. Its async verify runs on libuv's pool. */
function argon2(): Argon2Module {
  return (argon2Module ??= (typeof require === "function" ? require("@node-rs/argon2") : createRequire(import.meta.url)("@node-rs/argon2")) as Argon2Module);
}

/** Why an Argon2 PHC string is refused (its shape, or which parameter is out of bounds), or null. */
function checkPhc(h: string, what: string): string | null {
  const m = PHC.exec(h);
  const params = m && parseParams(m[3]);
  if (!m || !params || Object.keys(params).some((k) => !["m", "t", "p"].includes(k))) return `${what} is not a PHC string ($argon2id$v=19$m=…,t=…,p=…$salt$hash)`;
  const mem = intIn(params.m, 8, ARGON2_BOUNDS.maxMemoryKiB), t = intIn(params.t, 1, ARGON2_BOUNDS.maxPasses), p = intIn(params.p, 1, ARGON2_BOUNDS.maxLanes);
  if (mem === undefined) return `${what}: memory m=${params.m} KiB is out of bounds (8 to ${grouped(ARGON2_BOUNDS.maxMemoryKiB)})`;
  if (t === undefined) return `${what}: passes t=${params.t} is out of bounds (1 to ${ARGON2_BOUNDS.maxPasses})`;
  if (p === undefined) return `${what}: parallelism p=${params.p} is out of bounds (1 to ${ARGON2_BOUNDS.maxLanes})`;
  if (mem < 8 * p) return `${what}: memory m=${mem} KiB is less than 8 KiB per lane (p=${p})`;
  if (mem * t > ARGON2_BOUNDS.maxWork) return `${what}: work m×t = ${grouped(mem * t)} is out of bounds (at most ${grouped(ARGON2_BOUNDS.maxWork)})`;
  const salt = decodeBase64(m[4]), out = decodeBase64(m[5]);
  if (!salt || salt.length < 8 || salt.length > 64) return `${what}: the salt is not 8 to 64 bytes`;
  if (!out || out.length < 16 || out.length > 128) return `${what}: the hash is not 16 to 128 bytes`;
  return null;
}

async function verifyPhc(password: string, h: string): Promise<boolean> {
  try { return await argon2().verify(h, password); } catch { return false; }
}

/** Argon2id / Argon2i / Argon2d PHC strings ($argon2id$v=19$m=…,t=…,p=…$salt$hash): passlib, Kratos, Logto, Supabase, Auth0's import file, Keycloak's credential (keycloak.ts). */
export const argon2Phc: HashFormat = {
  id: "argon2",
  matches: (h) => /^\$argon2(id|i|d)\$/.test(h),
  check: (h) => checkPhc(h, "Argon2 hash"),
  verify: verifyPhc,
};

const DJANGO = "argon2";

/** Django's Argon2PasswordHasher: its algorithm name before the PHC string (`argon2$argon2id$v=19$m=102400,t=2,p=8$…`). */
export const djangoArgon2: HashFormat = {
  id: "django-argon2",
  matches: (h) => h.startsWith(`${DJANGO}$`),
  check: (h) => checkPhc(h.slice(DJANGO.length), "Django argon2 hash"),
  verify: (password, h) => verifyPhc(password, h.slice(DJANGO.length)),
};
