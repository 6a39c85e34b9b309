import { createHash, randomBytes, randomInt } from "node:crypto";
import { createChallenge, verifySolution, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import type { CoreContext } from "../../core/context.js";
import { findOrMakeSecret } from "../store.js";
import type { CheckedSolution } from "./verdict.js";

/**
 * The self-hosted proof of work: ALTCHA's v2 challenges (altcha-lib on the server, the altcha
 * widget in the browser; docs/security.md says why). A challenge is a random nonce and salt and a
 * key prefix; the browser tries counters until SHA-256(salt ‖ nonce ‖ counter) starts with it.
 * The server picks the counter itself (ALTCHA's deterministic mode) and signs the derived key, so
 * checking a solution costs two HMACs and no hashing loop, and needs no state but the used-solution
 * table. Challenges are signed with keys every instance shares (protection_secrets).
 */
export const CHALLENGE_TTL_MS = 10 * 60_000;

interface Keys { signature: string; key: string }
const keys = new WeakMap<CoreContext["store"], Promise<Keys>>();

function keysOf(ctx: CoreContext): Promise<Keys> {
  let k = keys.get(ctx.store);
  if (!k) {
    const make = () => randomBytes(32).toString("base64url");
    const now = ctx.clock.now();
    k = Promise.all([findOrMakeSecret(ctx.store, "captcha-signature", make, now), findOrMakeSecret(ctx.store, "captcha-key", make, now)]).then(([signature, key]) => ({ signature, key }));
    // A failed read (a database outage) is not remembered: the next request asks again.
    k.catch(() => keys.delete(ctx.store));
    keys.set(ctx.store, k);
  }
  return k;
}

/** A new challenge for the widget (GET /captcha/challenge): the counter is between a tenth of --captcha-difficulty and all of it. */
export async function createPowChallenge(ctx: CoreContext): Promise<Challenge> {
  const { signature, key } = await keysOf(ctx);
  const max = ctx.config.captchaDifficulty;
  return createChallenge({
    algorithm: "SHA-256", cost: 1, deriveKey,
    counter: randomInt(Math.max(1, Math.floor(max / 10)), max + 1),
    expiresAt: Math.floor((ctx.clock.now() + CHALLENGE_TTL_MS) / 1000),
    hmacSignatureSecret: signature, hmacKeySignatureSecret: key,
  });
}

/**
 * Checks what the widget sends (base64 of JSON {challenge, solution}): a challenge signed by us, not
 * expired by our clock, and the derived key whose signature it carries. Its id is the hash of the
 * challenge's signature (one per challenge), so one challenge is one use however it is re-sent.
 */
export async function checkPowSolution(ctx: CoreContext, header: string): Promise<CheckedSolution> {
  let payload: { challenge?: Challenge; solution?: { counter: number; derivedKey: string } };
  try {
    payload = JSON.parse(Buffer.from(header, "base64").toString("utf8"));
  } catch {
    return { ok: false, why: "invalid" };
  }
  const challenge = payload?.challenge;
  if (!challenge || typeof challenge !== "object" || typeof challenge.signature !== "string" || typeof challenge.parameters !== "object" || challenge.parameters === null) return { ok: false, why: "invalid" };
  const expiresAt = Number(challenge.parameters.expiresAt) * 1000;
  if (!Number.isFinite(expiresAt)) return { ok: false, why: "invalid" };
  const { signature, key } = await keysOf(ctx);
  let r: { verified: boolean; expired: boolean } = { verified: false, expired: false };
  try {
    r = await verifySolution({ challenge, solution: payload.solution as never, deriveKey, hmacSignatureSecret: signature, hmacKeySignatureSecret: key });
  } catch {
    // a payload of the wrong shape: the library refuses it, and so do we
  }
  if (r.expired) return { ok: false, why: "expired" };
  if (!r.verified) return { ok: false, why: "invalid" };
  // Checked after the signature, so a forged expiry cannot pass: by the server's clock.
  if (expiresAt <= ctx.clock.now()) return { ok: false, why: "expired" };
  return { ok: true, id: createHash("sha256").update(`pow:${challenge.signature}`).digest("hex"), expiresAt };
}
