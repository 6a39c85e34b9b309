import { refuseImport as refuse, type ImportPart } from "../../core/import-parts.js";
import { requireFactorOfEach } from "../../core/mfa.js";
import { insertRows } from "../../store/user-import.js";
import { sealTotpSecret } from "./seal.js";
import { TOTP_PERIOD_S, TOTP_SKEW } from "./secrets.js";

/**
 * TOTP devices in `users import` (core/import-parts.ts): the record's "totp", the secrets (Base32)
 * the source system exported, each becoming a verified device, sealed for its owner and name, and
 * the factor recorded as required for its owner, as a device verified through the API records it
 * (devices.ts verifyDevice): the person's next sign-in asks for a code. Every source that carries
 * authenticator secrets (move-in/) and the JSON lines file come through here. "totpRequired": true
 * records the requirement without a device (Keycloak's CONFIGURE_TOTP): the next sign-in sets one up.
 */
type TotpPiece = Array<{ secret: string; name: string }> & { required?: boolean };
export const totpImport: ImportPart<TotpPiece> = {
  id: "totp",
  top(o) {
    if (o.totpRequired !== undefined && typeof o.totpRequired !== "boolean") refuse("totpRequired must be true or false");
    if ((o.totp === undefined || o.totp === null) && o.totpRequired !== true) return undefined;
    if (o.totp === undefined || o.totp === null) return Object.assign([], { required: true });
    if (!Array.isArray(o.totp) || o.totp.length > 10) refuse("totp must be a list of at most 10 devices");
    const devices: Array<{ secret: string; name: string }> = [];
    (o.totp as unknown[]).forEach((d, i) => {
      const dev = d as Record<string, unknown> | null;
      const secret = dev && typeof dev.secret === "string" ? dev.secret.replace(/[\s=]/g, "").toUpperCase() : "";
      if (!/^[A-Z2-7]{16,128}$/.test(secret)) refuse(`totp[${i}].secret must be a Base32 TOTP secret (16 to 128 characters)`);
      const name = dev!.name === undefined ? (i === 0 ? "imported" : `imported-${i + 1}`) : dev!.name;
      if (typeof name !== "string" || !/^[^\x00-\x1f\x7f]{1,64}$/.test(name) || devices.some((t) => t.name === name)) refuse(`totp[${i}].name must be a distinct name of 1 to 64 characters`);
      devices.push({ secret, name: name as string });
    });
    return Object.assign(devices, { required: o.totpRequired === true });
  },
  // Authenticator secrets another system kept (move-in/): the person's devices, in the order read.
  // An authenticator app the other system asks to be set up at the next sign-in: required, with no device yet.
  takes: {
    "authenticator-secret": { top: (facts) => ({ totp: facts.map((f) => ({ secret: f.secret, name: f.name })) }) },
    "authenticator-required": { top: () => ({ totpRequired: true }) },
  },
  async insert(tx, people, { now, secret }) {
    await insertRows(tx, "totp_devices", people.flatMap(({ id, part }) => part.map((t) => (
      { user_id: id, name: t.name, secret_enc: sealTotpSecret(t.secret, secret, id, t.name), period: TOTP_PERIOD_S, skew: TOTP_SKEW, created_at: now, verified_at: now }))));
    await requireFactorOfEach(tx, people.filter((p) => p.part.length > 0 || p.part.required).map((p) => p.id), "totp", now);
  },
};
