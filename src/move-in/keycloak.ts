import type { ImportFact } from "../core/import-parts.js";
import { base32, compact, jsonObject, MoveInError, providerId, readJsonFile, type SourceRecord } from "./common.js";
import type { MovedInput, MovedPerson, MoveInOptions, MoveInSource } from "./source.js";

/** Roles every user of a realm holds (its default composite and Keycloak's own): not the app's. */
const builtInRoles = (realm: unknown) => new Set([`default-roles-${String(realm).toLowerCase()}`, "offline_access", "uma_authorization"]);
/** Required actions authsvc carries out itself; the others are kept in the metadata for the app. */
const ACTED_ON = new Set(["VERIFY_EMAIL", "CONFIGURE_TOTP"]);

const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
const json = (v: unknown): SourceRecord => jsonObject(v) ?? {};

/**
 * An OTP credential as an authenticator app's secret, or why it cannot move. Keycloak keeps the
 * secret as text whose UTF-8 bytes are the key (its QR code shows their Base32), or as Base32 when
 * credentialData says secretEncoding BASE32 (OTPCredentialModel.getDecodedSecret).
 */
function otpSecret(c: SourceRecord): { secret: string } | { refused: string } {
  const secret = json(c.secretData), data = json(c.credentialData);
  const label = text(c.userLabel) ? ` "${c.userLabel as string}"` : "";
  const what = (p: string) => `its OTP credential${label} uses ${p}; authsvc's authenticator codes are TOTP, HmacSHA1, 6 digits, 30 s: reset the user's OTP in Keycloak or leave the credential out of the export`;
  if ((data.subType ?? "totp") !== "totp") return { refused: what(`subType ${String(data.subType)}`) };
  if ((data.algorithm ?? "HmacSHA1") !== "HmacSHA1") return { refused: what(String(data.algorithm)) };
  if (Number(data.digits ?? 6) !== 6) return { refused: what(`${String(data.digits)} digits`) };
  if (Number(data.period ?? 30) !== 30) return { refused: what(`a period of ${String(data.period)} s`) };
  if (typeof secret.value !== "string" || secret.value === "") return { refused: `its OTP credential${label} has no secretData.value` };
  if (String(data.secretEncoding ?? "").toUpperCase() === "BASE32") return { secret: secret.value };
  return { secret: base32(Buffer.from(secret.value, "utf8")) };
}

/** One user of the export: what Keycloak knows of the person, or why they do not move. */
function toPerson(u: SourceRecord, realm: unknown, options: MoveInOptions): MovedPerson | string {
  const name = text(u.username) ?? String(u.id);
  const email = text(u.email);
  if (!email) return `user ${name} has no email (authsvc signs people in by address; a username alone does not move)`;
  if (u.enabled === false) return `user ${name} is disabled in Keycloak (enabled: false): enable them there first, or leave them out`;
  const actions = strings(u.requiredActions);
  const verified = u.emailVerified === true && !actions.includes("VERIFY_EMAIL");
  const joined = typeof u.createdTimestamp === "number" ? u.createdTimestamp : undefined;
  const credentials = Array.isArray(u.credentials) ? u.credentials.map(jsonObject).filter((c): c is SourceRecord => c !== undefined) : [];
  const facts: ImportFact[] = [];
  const password = credentials.find((c) => c.type === "password");
  if (password) facts.push({ fact: "password-hash", email, verified, hash: password, timeJoined: joined });
  for (const f of Array.isArray(u.federatedIdentities) ? u.federatedIdentities.map(jsonObject) : []) {
    if (f && text(f.identityProvider)) facts.push({ fact: "provider-identity", email, verified, provider: providerId(f.identityProvider as string), subject: f.userId, timeJoined: joined });
  }
  if (facts.length === 0) facts.push({ fact: "address-only", email, verified, timeJoined: joined });
  for (const c of credentials.filter((x) => x.type === "otp")) {
    const otp = otpSecret(c);
    if ("refused" in otp) return `user ${name}: ${otp.refused}`;
    facts.push({ fact: "authenticator-secret", secret: otp.secret, name: text(c.userLabel) });
  }
  if (actions.includes("CONFIGURE_TOTP") && !facts.some((f) => f.fact === "authenticator-secret")) facts.push({ fact: "authenticator-required" });
  const builtIn = builtInRoles(realm);
  for (const role of strings(u.realmRoles)) if (!builtIn.has(role)) facts.push({ fact: "role", role });
  if (options.groupsAsOrganizations) {
    // A group's path is /top/sub/…: a person in any group under a top-level group is a member of its organization.
    for (const top of new Set(strings(u.groups).map((g) => g.replace(/^\//, "").split("/")[0]).filter(Boolean))) facts.push({ fact: "organization-membership", organization: top });
  }
  const others = actions.filter((a) => !ACTED_ON.has(a));
  const metadata = compact({
    username: text(u.username), first_name: text(u.firstName), last_name: text(u.lastName), attributes: jsonObject(u.attributes),
    required_actions: others.length ? others : undefined,
  });
  return { id: u.id, email, verified, timeJoined: joined, facts, metadata };
}

/**
 * Keycloak: a realm export (`kc.sh export --realm NAME --file realm.json`, or the admin console's
 * partial export) and, when the users were exported to files of their own (`--users
 * different_files`), those `NAME-users-N.json` files, in any order. Each is one JSON document, read
 * whole. Ids (UUIDs) are kept; the password credential (PBKDF2 of any of its digests, or Argon2) is
 * kept as Keycloak wrote it; federated identities are identities at their provider (the alias);
 * TOTP credentials are authenticator secrets; emailVerified is the verified flag (not with a
 * VERIFY_EMAIL required action); CONFIGURE_TOTP asks for an authenticator app at the next sign-in;
 * realm roles (but the realm's defaults) are roles; top-level groups become organizations when
 * asked (--groups-as-organizations). Disabled users and users without an address are refused.
 */
export const keycloak: MoveInSource = {
  id: "keycloak",
  files: "the realm export (JSON), and its NAME-users-N.json files if the users were exported apart",
  async *read(files, options) {
    let n = 0;
    for (const file of files) {
      const doc = jsonObject(readJsonFile(file));
      if (!doc || (doc.users !== undefined && !Array.isArray(doc.users)) || (doc.users === undefined && doc.realm === undefined)) throw new MoveInError(`${file} is not a Keycloak realm export (an object with realm and users)`);
      for (const [i, raw] of ((doc.users ?? []) as unknown[]).entries()) {
        const u = jsonObject(raw);
        const where = `${file} users[${i}]${u && text(u.username) ? ` (${u.username as string})` : ""}`;
        n++;
        const person = u ? toPerson(u, doc.realm, options) : "not a JSON object";
        yield (typeof person === "string" ? { line: n, where, refused: person } : { line: n, where, person }) satisfies MovedInput;
      }
    }
  },
};
