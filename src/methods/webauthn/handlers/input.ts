import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { badInput } from "../../../core/errors.js";

/**
 * The shape of `credential` as @simplewebauthn/browser sends it (a PublicKeyCredential as JSON).
 * Anything else is a 400 before the verifier sees it; what is inside the strings is the
 * verifier's to judge (a bad value there is INVALID_CREDENTIALS_ERROR, never a 500).
 */
export function parseRegistrationCredential(v: unknown): RegistrationResponseJSON {
  const c = parseCommon(v);
  requireString(c.response.attestationObject, "credential.response.attestationObject");
  if (c.response.transports !== undefined && (!Array.isArray(c.response.transports) || c.response.transports.some((t) => typeof t !== "string"))) throw badInput("credential.response.transports must be an array of strings");
  return c as unknown as RegistrationResponseJSON;
}

export function parseAuthenticationCredential(v: unknown): AuthenticationResponseJSON {
  const c = parseCommon(v);
  requireString(c.response.authenticatorData, "credential.response.authenticatorData");
  requireString(c.response.signature, "credential.response.signature");
  if (c.response.userHandle !== undefined && c.response.userHandle !== null && typeof c.response.userHandle !== "string") throw badInput("credential.response.userHandle must be a string");
  return c as unknown as AuthenticationResponseJSON;
}

/** The generated options' id: a non-empty string. */
export function parseOptionsId(v: unknown): string {
  if (v === undefined || v === null || v === "") throw badInput("Please provide the webauthnGeneratedOptionsId");
  if (typeof v !== "string") throw badInput("webauthnGeneratedOptionsId must be a string");
  return v;
}

interface CommonShape { id: string; rawId: string; type: string; response: Record<string, unknown>; clientExtensionResults: unknown }

function parseCommon(v: unknown): CommonShape {
  if (v === undefined || v === null) throw badInput("Please provide the credential");
  if (!isObject(v)) throw badInput("credential must be an object");
  requireString(v.id, "credential.id");
  requireString(v.rawId, "credential.rawId");
  if (v.type !== "public-key") throw badInput('credential.type must be "public-key"');
  if (!isObject(v.response)) throw badInput("credential.response must be an object");
  requireString(v.response.clientDataJSON, "credential.response.clientDataJSON");
  return { ...v, clientExtensionResults: isObject(v.clientExtensionResults) ? v.clientExtensionResults : {} } as unknown as CommonShape;
}

function requireString(v: unknown, name: string): void {
  if (typeof v !== "string" || v === "") throw badInput(`${name} must be a non-empty string`);
  if (v.length > 16_384) throw badInput(`${name} is too long`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === "object" && !Array.isArray(v);
}
