import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import type { CoreContext } from "../../core/context.js";
import { createId } from "../../util/random.js";
import * as store from "./store.js";

/**
 * The WebAuthn ceremony itself, on @simplewebauthn/server (no hand-written CBOR or COSE): options
 * with a fresh challenge, stored with an expiry and taken once; responses checked against the
 * stored challenge, the configured origins and RP ID. SuperTokens' defaults (recipes notes §5):
 * 60 s, attestation "none", resident key required, user verification preferred, EdDSA/ES256/RS256.
 */
/**
 * The library is loaded on the first ceremony, not at start: it and what it pulls in (CBOR, ASN.1,
 * COSE) are about 20 MB of every server's resident memory, and most servers never see a passkey.
 */
let library: Promise<typeof import("@simplewebauthn/server")> | undefined;
const webauthn = () => (library ??= import("@simplewebauthn/server"));

export const OPTIONS_TIMEOUT_MS = 60_000;
const ALGORITHMS = [-8, -7, -257];
const USER_VERIFICATION = "preferred" as const;

/** Why a stored set of options cannot be used. */
export type OptionsProblem = "OPTIONS_NOT_FOUND_ERROR" | "INVALID_OPTIONS_ERROR";
export type VerifyProblem = { status: "INVALID_CREDENTIALS_ERROR" } | { status: "INVALID_AUTHENTICATOR_ERROR"; reason: string };

/**
 * Registration options for `email` (a new login, or `userId`'s existing one), stored for one use.
 * The user handle is the recipe user id the login has or will have, so an authenticator keeps one
 * passkey per account and a sign-in's userHandle names the login it belongs to.
 */
export async function createRegistrationOptions(ctx: CoreContext, p: { email: string; userId?: string; exclude?: { id: string; transports?: string[] }[] }) {
  const now = ctx.clock.now();
  const userId = p.userId ?? createId();
  const options = await (await webauthn()).generateRegistrationOptions({
    rpName: ctx.config.webauthnRpName,
    rpID: ctx.config.webauthnRpId,
    userName: p.email,
    userDisplayName: p.email,
    userID: new TextEncoder().encode(userId),
    timeout: OPTIONS_TIMEOUT_MS,
    attestationType: "none",
    excludeCredentials: p.exclude,
    authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: USER_VERIFICATION },
    supportedAlgorithmIDs: ALGORITHMS,
  });
  const id = createId();
  const expiresAt = now + OPTIONS_TIMEOUT_MS;
  await store.insertOptions(ctx.store.db, {
    id, kind: "registration", challenge: options.challenge, email: p.email, user_handle: userId,
    rp_id: ctx.config.webauthnRpId, user_verification: USER_VERIFICATION, created_at: now, expires_at: expiresAt,
  });
  return { status: "OK" as const, webauthnGeneratedOptionsId: id, createdAt: new Date(now).toISOString(), expiresAt: new Date(expiresAt).toISOString(), ...options };
}

/** Sign-in options: no credentials listed (discoverable passkeys), stored for one use. */
export async function createAuthenticationOptions(ctx: CoreContext) {
  const now = ctx.clock.now();
  const options = await (await webauthn()).generateAuthenticationOptions({ rpID: ctx.config.webauthnRpId, timeout: OPTIONS_TIMEOUT_MS, userVerification: USER_VERIFICATION });
  const id = createId();
  const expiresAt = now + OPTIONS_TIMEOUT_MS;
  await store.insertOptions(ctx.store.db, {
    id, kind: "authentication", challenge: options.challenge, email: null, user_handle: null,
    rp_id: ctx.config.webauthnRpId, user_verification: USER_VERIFICATION, created_at: now, expires_at: expiresAt,
  });
  return {
    status: "OK" as const, webauthnGeneratedOptionsId: id, rpId: options.rpId, createdAt: new Date(now).toISOString(), expiresAt: new Date(expiresAt).toISOString(),
    challenge: options.challenge, timeout: options.timeout, userVerification: options.userVerification,
  };
}

/**
 * Takes options for use: they are deleted whether or not what follows succeeds, so a challenge
 * is answered at most once (a replayed response finds nothing). Expired or of the other kind:
 * INVALID_OPTIONS_ERROR; unknown or used: OPTIONS_NOT_FOUND_ERROR.
 */
export async function takeOptions(ctx: CoreContext, id: string, kind: "registration" | "authentication"): Promise<store.OptionsRow | OptionsProblem> {
  const row = await ctx.store.writeTx((tx) => store.takeOptions(tx, id));
  if (!row) return "OPTIONS_NOT_FOUND_ERROR";
  if (row.kind !== kind || Number(row.expires_at) <= ctx.clock.now() || row.rp_id !== ctx.config.webauthnRpId) return "INVALID_OPTIONS_ERROR";
  return row;
}

export interface NewCredential { id: string; publicKey: string; counter: number; transports: string[] | undefined }

/** Checks a registration response against taken options; returns the credential to store. */
export async function verifyRegistration(ctx: CoreContext, options: store.OptionsRow, response: RegistrationResponseJSON): Promise<NewCredential | VerifyProblem> {
  try {
    const r = await (await webauthn()).verifyRegistrationResponse({
      response, expectedChallenge: options.challenge, expectedOrigin: [...ctx.config.webauthnOrigins], expectedRPID: options.rp_id,
      requireUserVerification: false, supportedAlgorithmIDs: ALGORITHMS,
    });
    if (!r.verified) return { status: "INVALID_CREDENTIALS_ERROR" };
    const c = r.registrationInfo.credential;
    return { id: c.id, publicKey: Buffer.from(c.publicKey).toString("base64url"), counter: c.counter, transports: c.transports ?? response.response.transports };
  } catch (err) {
    return describeFailure(ctx, err);
  }
}

/**
 * Checks a sign-in response against taken options and the stored credential. The library refuses
 * a signature counter that did not move forward (a cloned authenticator); the new counter is returned.
 */
export async function verifyAuthentication(ctx: CoreContext, options: store.OptionsRow, cred: store.CredentialRow, response: AuthenticationResponseJSON): Promise<{ newCounter: number } | VerifyProblem> {
  try {
    const r = await (await webauthn()).verifyAuthenticationResponse({
      response, expectedChallenge: options.challenge, expectedOrigin: [...ctx.config.webauthnOrigins], expectedRPID: options.rp_id,
      credential: { id: cred.id, publicKey: new Uint8Array(Buffer.from(cred.public_key, "base64url")), counter: Number(cred.counter), transports: parseTransports(cred.transports) as never },
      requireUserVerification: false,
    });
    return r.verified ? { newCounter: r.authenticationInfo.newCounter } : { status: "INVALID_CREDENTIALS_ERROR" };
  } catch (err) {
    return describeFailure(ctx, err);
  }
}

/** The library throws on every mismatch (origin, RP ID, challenge, signature, counter, garbage). */
function describeFailure(ctx: CoreContext, err: unknown): VerifyProblem {
  const message = err instanceof Error ? err.message : String(err);
  ctx.logger.debug("webauthn response refused", { why: message });
  if (/public key alg|Unsupported Attestation Format/i.test(message)) return { status: "INVALID_AUTHENTICATOR_ERROR", reason: "The authenticator's key type or attestation is not supported." };
  return { status: "INVALID_CREDENTIALS_ERROR" };
}

export function parseTransports(json: string | null): string[] | undefined {
  if (!json) return undefined;
  try { const v = JSON.parse(json); return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : undefined; } catch { return undefined; }
}
