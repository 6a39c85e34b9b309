import { decodeBase64 } from "./encoding.js";

const PBKDF2_DIGEST: Readonly<Record<string, string>> = { pbkdf2: "sha1", "pbkdf2-sha256": "sha256", "pbkdf2-sha512": "sha512" };
const ARGON2_TYPES = ["id", "i", "d"];
const ARGON2_VERSIONS: Readonly<Record<string, number>> = { "1.3": 19, "1.0": 16 };

/** A value of Keycloak's additionalParameters ({"memory": ["7168"]}: each a list of strings), or undefined. */
function first(params: unknown, key: string): string | undefined {
  const v = params && typeof params === "object" ? (params as Record<string, unknown>)[key] : undefined;
  const x = Array.isArray(v) ? v[0] : v;
  return typeof x === "string" || typeof x === "number" ? String(x) : undefined;
}

/** The base64 of Keycloak's secretData as PHC writes it: no padding. */
const unpadded = (b64: string) => b64.replace(/=+$/, "");

/**
 * Keycloak's password credential, as its realm export writes it ({"type":"password",
 * "secretData":"{\"value\":…,\"salt\":…}", "credentialData":"{\"hashIterations\":…,\"algorithm\":…,
 * \"additionalParameters\":{…}}"}) or flat ({algorithm, hashIterations, salt, value,
 * additionalParameters}), as the PHC string it is stored as: PBKDF2 (`pbkdf2` is SHA-1,
 * `pbkdf2-sha256`, `pbkdf2-sha512`; Keycloak hashes the password's UTF-8 with the salt's bytes) or
 * Argon2 (Keycloak 25's default: type, version, memory, parallelism and hashLength in
 * additionalParameters, the passes in hashIterations). Returns the string, or why the credential is
 * refused; the string's own bounds are checked by its format (argon2.ts, pbkdf2.ts).
 */
export function keycloakCredentialToPhc(credential: Record<string, unknown>): { hash: string } | { refused: string } {
  let fields: Record<string, unknown> = credential;
  try {
    if (typeof credential.secretData === "string" || typeof credential.credentialData === "string") {
      fields = { ...JSON.parse(String(credential.secretData)), ...JSON.parse(String(credential.credentialData)) };
    }
  } catch {
    return { refused: "Keycloak credential's secretData or credentialData is not JSON" };
  }
  const algorithm = String(fields.algorithm);
  if (!PBKDF2_DIGEST[algorithm] && algorithm !== "argon2") return { refused: `Keycloak credential algorithm ${JSON.stringify(fields.algorithm)} is not one of ${[...Object.keys(PBKDF2_DIGEST), "argon2"].join(", ")}` };
  if (typeof fields.salt !== "string" || typeof fields.value !== "string" || !decodeBase64(fields.salt) || !decodeBase64(fields.value)) return { refused: "Keycloak credential's salt or value is not base64" };
  const salt = unpadded(fields.salt), value = unpadded(fields.value);
  const extra = fields.additionalParameters;
  const iterations = Number.isSafeInteger(fields.hashIterations) && (fields.hashIterations as number) > 0 ? fields.hashIterations as number : Number(first(extra, "iterations"));
  if (!Number.isSafeInteger(iterations) || iterations < 1) return { refused: "Keycloak credential's hashIterations is not a whole number above 0" };
  if (algorithm !== "argon2") return { hash: `$pbkdf2-${PBKDF2_DIGEST[algorithm]}$i=${iterations}$${salt}$${value}` };
  const type = first(extra, "type") ?? "id", version = first(extra, "version") ?? "1.3";
  if (!ARGON2_TYPES.includes(type)) return { refused: `Keycloak Argon2 credential: type ${JSON.stringify(type)} is not one of ${ARGON2_TYPES.join(", ")}` };
  if (!(version in ARGON2_VERSIONS)) return { refused: `Keycloak Argon2 credential: version ${JSON.stringify(version)} is not one of ${Object.keys(ARGON2_VERSIONS).join(", ")}` };
  const memory = first(extra, "memory"), parallelism = first(extra, "parallelism") ?? "1", hashLength = first(extra, "hashLength");
  if (!memory || !/^\d{1,10}$/.test(memory)) return { refused: "Keycloak Argon2 credential: memory is not a whole number of KiB" };
  if (!/^\d{1,10}$/.test(parallelism)) return { refused: "Keycloak Argon2 credential: parallelism is not a whole number" };
  if (hashLength !== undefined && Number(hashLength) !== decodeBase64(fields.value)!.length) return { refused: `Keycloak Argon2 credential: hashLength ${hashLength} is not the value's ${decodeBase64(fields.value)!.length} bytes` };
  return { hash: `$argon2${type}$v=${ARGON2_VERSIONS[version]}$m=${memory},t=${iterations},p=${parallelism}$${salt}$${value}` };
}
