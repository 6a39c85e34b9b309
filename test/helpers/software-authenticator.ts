import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { isoBase64URL, isoCBOR } from "@simplewebauthn/server/helpers";

/**
 * A software authenticator for tests: real key pairs (node:crypto ES256 or EdDSA), real CBOR
 * (the verifier's own encoder), real signatures, so the server checks exactly what a browser
 * would send. Knobs for the cases a test needs: another origin, another RP ID, a chosen counter.
 */
export type Alg = "ES256" | "EdDSA";

interface StoredKey { id: string; alg: Alg; privateKey: KeyObject; cose: Uint8Array; counter: number; userHandle: string; rpId: string }

interface RegistrationOptionsLike { challenge: string; rp: { id?: string }; user: { id: string } }
interface AuthenticationOptionsLike { challenge: string; rpId?: string }

export interface Overrides { origin?: string; rpId?: string; counter?: number; credentialId?: string }

export class SoftwareAuthenticator {
  readonly keys = new Map<string, StoredKey>();
  constructor(readonly origin: string, readonly alg: Alg = "ES256") {}

  /** navigator.credentials.create(): a RegistrationResponseJSON for these options. */
  register(options: RegistrationOptionsLike, o: Overrides = {}) {
    const rpId = o.rpId ?? options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = this.alg === "ES256" ? generateKeyPairSync("ec", { namedCurve: "P-256" }) : generateKeyPairSync("ed25519");
    const jwk = publicKey.export({ format: "jwk" });
    const cose = this.alg === "ES256"
      ? isoCBOR.encode(new Map<number, number | Uint8Array>([[1, 2], [3, -7], [-1, 1], [-2, isoBase64URL.toBuffer(jwk.x!)], [-3, isoBase64URL.toBuffer(jwk.y!)]]))
      : isoCBOR.encode(new Map<number, number | Uint8Array>([[1, 1], [3, -8], [-1, 6], [-2, isoBase64URL.toBuffer(jwk.x!)]]));
    const idBytes = randomBytes(32);
    const id = isoBase64URL.fromBuffer(idBytes);
    const counter = o.counter ?? 0;
    const authData = Buffer.concat([
      sha256(rpId), Buffer.from([0x45]), u32(counter), Buffer.alloc(16), Buffer.from([0, idBytes.length]), idBytes, Buffer.from(cose),
    ]);
    const attestationObject = isoCBOR.encode(new Map<string, string | Uint8Array | Map<string, never>>([["fmt", "none"], ["attStmt", new Map<string, never>()], ["authData", authData]]));
    const clientDataJSON = this.clientData("webauthn.create", options.challenge, o.origin);
    this.keys.set(id, { id, alg: this.alg, privateKey, cose, counter, userHandle: options.user.id, rpId });
    return {
      id, rawId: id, type: "public-key" as const, authenticatorAttachment: "platform" as const, clientExtensionResults: {},
      response: { clientDataJSON, attestationObject: isoBase64URL.fromBuffer(attestationObject), transports: ["internal" as const] },
    };
  }

  /** navigator.credentials.get(): an AuthenticationResponseJSON signed by a stored key (the only one, or `credentialId`). */
  authenticate(options: AuthenticationOptionsLike, o: Overrides = {}) {
    const key = o.credentialId ? this.keys.get(o.credentialId) : [...this.keys.values()].at(-1);
    if (!key) throw new Error("no passkey in this authenticator");
    key.counter = o.counter ?? key.counter + 1;
    const rpId = o.rpId ?? options.rpId ?? key.rpId;
    const authData = Buffer.concat([sha256(rpId), Buffer.from([0x05]), u32(key.counter)]);
    const clientDataJSON = this.clientData("webauthn.get", options.challenge, o.origin);
    const signed = Buffer.concat([authData, sha256Bytes(isoBase64URL.toBuffer(clientDataJSON))]);
    const signature = key.alg === "ES256" ? sign("sha256", signed, key.privateKey) : sign(null, signed, key.privateKey);
    return {
      id: key.id, rawId: key.id, type: "public-key" as const, authenticatorAttachment: "platform" as const, clientExtensionResults: {},
      response: { clientDataJSON, authenticatorData: isoBase64URL.fromBuffer(authData), signature: isoBase64URL.fromBuffer(signature), userHandle: key.userHandle },
    };
  }

  private clientData(type: string, challenge: string, origin = this.origin): string {
    return isoBase64URL.fromBuffer(Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false })));
  }
}

const sha256 = (s: string) => createHash("sha256").update(s).digest();
const sha256Bytes = (b: Uint8Array) => createHash("sha256").update(b).digest();
const u32 = (n: number) => { const b = Buffer.alloc(4); b.writeUInt32BE(n); return b; };
