import { createRequire } from "node:module";
import { intIn, parseParams, decodeBase64 } from "./encoding.js";
import type { HashFormat } from "./types.js";

/** Bounds on imported Argon2 parameters: memory in KiB (256 MiB), passes, lanes, and memory × passes. */
export const ARGON2_BOUNDS = { maxMemoryKiB: 262_144, maxPasses: 16, maxLanes: 16, maxWork: 1_048_576 };

const PHC = /^\$argon2(id|i|d)\$(?:v=(16|19)\$)?([^$]+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

type Argon2Module = { verify(hash: string, password: string | Uint8Array): Promise<boolean> };
let argon2Module: Argon2Module | undefined;
/** Loaded on first use: most servers never see an Argon2 hash. Its async verify runs on libuv's pool. */
function argon2(): Argon2Module {
  return (argon2Module ??= (typeof require === "function" ? require("@node-rs/argon2") : createRequire(import.meta.url)("@node-rs/argon2")) as Argon2Module);
}

/** Argon2id / Argon2i / Argon2d PHC strings ($argon2id$v=19$m=…,t=…,p=…$salt$hash): passlib, Keycloak, Kratos, Logto, Supabase. */
export const argon2Phc: HashFormat = {
  id: "argon2",
  matches: (h) => /^\$argon2(id|i|d)\$/.test(h),
  check(h) {
    const m = PHC.exec(h);
    const params = m && parseParams(m[3]);
    if (!m || !params || Object.keys(params).some((k) => !["m", "t", "p"].includes(k))) return "Argon2 hash is not a PHC string ($argon2id$v=19$m=…,t=…,p=…$salt$hash)";
    const mem = intIn(params.m, 8, ARGON2_BOUNDS.maxMemoryKiB), t = intIn(params.t, 1, ARGON2_BOUNDS.maxPasses), p = intIn(params.p, 1, ARGON2_BOUNDS.maxLanes);
    if (mem === undefined) return `Argon2 memory m=${params.m} KiB is out of bounds (8 to ${ARGON2_BOUNDS.maxMemoryKiB})`;
    if (t === undefined) return `Argon2 passes t=${params.t} is out of bounds (1 to ${ARGON2_BOUNDS.maxPasses})`;
    if (p === undefined) return `Argon2 parallelism p=${params.p} is out of bounds (1 to ${ARGON2_BOUNDS.maxLanes})`;
    if (mem * t > ARGON2_BOUNDS.maxWork) return `Argon2 work m×t = ${mem * t} is out of bounds (at most ${ARGON2_BOUNDS.maxWork})`;
    const salt = decodeBase64(m[4]), out = decodeBase64(m[5]);
    if (!salt || salt.length < 8 || salt.length > 64 || !out || out.length < 16 || out.length > 128) return "Argon2 hash has a salt or output of an unusual length";
    return null;
  },
  async verify(password, hash) {
    try { return await argon2().verify(hash, password); } catch { return false; }
  },
};
