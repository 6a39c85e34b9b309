import { SAML, ValidateInResponseTo } from "@node-saml/node-saml";
import type { Config } from "../config/types.js";
import type { CoreContext } from "../core/context.js";
import { canonicalEmail, isValidEmail } from "../core/emails.js";
import { AuthError } from "../core/errors.js";
import { isUniqueViolation } from "../store/database.js";
import { insertEvent } from "../store/events.js";
import { findPersonId } from "../store/people.js";
import { accountsOf } from "../core/account-operations.js";
import { membershipsOf } from "../core/memberships.js";
import { roleFromGroups } from "./scim-membership.js";
import type { SsoConnectionsTable } from "./schema.js";
import { findUserByPerson, rememberAssertion } from "./store.js";

/**
 * SAML 2.0 sign-in through an organization's connection, on @node-saml/node-saml (docs/enterprise-sso.md
 * says why): it builds the AuthnRequest and checks the response's XML signature against the
 * IdP's certificates from its metadata, the audience, recipient, issuer and time conditions. On
 * top: signed assertions required (an unsigned one is refused even inside a signed response),
 * each assertion id accepted once until its NotOnOrAfter, InResponseTo required unless the
 * connection allows IdP-initiated sign-in, and the address at one of the organization's proven
 * domains. The person is the SDKs' third-party login `saml-<id>` (linked by verified address as
 * any provider's) and a member of the organization with the role its groups name.
 */
const refused = (why: string) => new AuthError("BAD_INPUT", `SAML sign-in refused: ${why}`);
const PEM = (der: string) => `-----BEGIN CERTIFICATE-----\n${der.match(/.{1,64}/g)!.join("\n")}\n-----END CERTIFICATE-----`;

export const spEntityId = (config: Readonly<Config>, id: string) => `${config.publicUrl.replace(/\/+$/, "")}${config.apiBasePath}/saml/${id}/metadata`;
export const acsUrl = (config: Readonly<Config>, id: string) => `${config.publicUrl.replace(/\/+$/, "")}${config.apiBasePath}/saml/${id}/acs`;

// One SAML object per connection and process: its cache holds the ids of the AuthnRequests this
// process sent (InResponseTo), for their 8-hour default lifetime.
const instances = new Map<string, SAML>();

export function samlFor(config: Readonly<Config>, c: SsoConnectionsTable): SAML {
  const key = `${c.id}:${c.idp_certs}:${c.idp_initiated}:${config.publicUrl}`;
  let saml = instances.get(key);
  if (!saml) {
    saml = new SAML({
      issuer: spEntityId(config, c.id), callbackUrl: acsUrl(config, c.id), audience: spEntityId(config, c.id),
      entryPoint: c.idp_sso_url, idpIssuer: c.idp_entity_id, idpCert: (JSON.parse(c.idp_certs) as string[]).map(PEM),
      wantAssertionsSigned: true, wantAuthnResponseSigned: false, acceptedClockSkewMs: 30_000,
      validateInResponseTo: c.idp_initiated === 1 ? ValidateInResponseTo.ifPresent : ValidateInResponseTo.always,
      identifierFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress", disableRequestedAuthnContext: true,
    });
    instances.set(key, saml);
  }
  return saml;
}

const EMAIL_ATTRS = ["email", "mail", "emailaddress", "urn:oid:0.9.2342.19200300.100.1.3", "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress"];
const GROUP_ATTRS = ["groups", "group", "memberof", "http://schemas.microsoft.com/ws/2008/06/identity/claims/groups", "http://schemas.microsoft.com/ws/2008/06/identity/claims/role"];
const pick = (profile: Record<string, unknown>, names: readonly string[]): unknown => {
  for (const [k, v] of Object.entries(profile)) if (names.includes(k.toLowerCase())) return v;
  return undefined;
};

/** Checks a posted SAMLResponse and signs the person in: their recipe user id. */
export async function acceptSamlResponse(ctx: CoreContext, c: SsoConnectionsTable, samlResponse: string): Promise<{ userId: string }> {
  let profile: Record<string, unknown> | null;
  try {
    profile = (await samlFor(ctx.config, c).validatePostResponseAsync({ SAMLResponse: samlResponse })).profile as Record<string, unknown> | null;
  } catch (err) {
    ctx.logger.info("SAML response refused", { connection: c.id, reason: err instanceof Error ? err.message : String(err) });
    throw refused(err instanceof Error ? err.message : "the response is not valid");
  }
  if (!profile) throw refused("no assertion");
  const assertion = (profile.getAssertion as (() => Record<string, any>) | undefined)?.()?.Assertion;
  const assertionId = String(assertion?.$?.ID ?? "");
  const notOnOrAfter = Date.parse(String(assertion?.Conditions?.[0]?.$?.NotOnOrAfter ?? assertion?.Subject?.[0]?.SubjectConfirmation?.[0]?.SubjectConfirmationData?.[0]?.$?.NotOnOrAfter ?? ""));
  if (!assertionId) throw refused("the assertion has no ID");
  const rawEmail = pick(profile, EMAIL_ATTRS) ?? profile.nameID;
  const email = typeof rawEmail === "string" ? canonicalEmail(rawEmail) : "";
  if (!isValidEmail(email)) throw refused("the assertion names no address (email attribute or NameID)");
  const orgs = membershipsOf(ctx);
  const domain = await orgs.findDomain(ctx.store.db, email.slice(email.lastIndexOf("@") + 1));
  if (domain?.organization_id !== c.organization_id) throw refused(`${email} is not at one of the organization's proven domains`);
  const now = ctx.clock.now();
  // Replays: the assertion id is remembered until its NotOnOrAfter (an hour when it names none).
  try {
    await ctx.store.writeTx((tx) => rememberAssertion(tx, c.id, assertionId, Number.isFinite(notOnOrAfter) ? notOnOrAfter : now + 3_600_000, now));
  } catch (err) {
    if (isUniqueViolation(err)) throw refused("this assertion was used already (a replay)");
    throw err;
  }
  const up = await accountsOf(ctx, "providerIdentities").upsert(ctx, { thirdPartyId: `saml-${c.id}`, thirdPartyUserId: String(profile.nameID ?? email), email, emailVerified: true });
  if (up.status !== "OK") throw refused(`account linking refused the sign-in (${up.status})`);
  // A value with an xsi:type comes back as { _: text, $: attributes }.
  // The organization's directory deprovisioned this person (SCIM active false): no sign-in through its IdP either.
  const personId = (await findPersonId(ctx.store.db, up.user.id)) ?? up.user.id;
  if ((await findUserByPerson(ctx.store.db, c.organization_id, personId))?.active === 0) throw refused("the organization's directory deprovisioned this person");
  const groups = ([] as unknown[]).concat(pick(profile, GROUP_ATTRS) ?? []).map((g) => (g && typeof g === "object" && "_" in g ? (g as { _: unknown })._ : g)).filter((g): g is string => typeof g === "string");
  await ctx.store.writeTx(async (tx) => {
    const personId = (await findPersonId(tx, up.user.id)) ?? up.user.id;
    const m = await orgs.findMember(tx, c.organization_id, personId);
    const role = await roleFromGroups(tx, orgs, groups);
    if (!m) {
      await orgs.insertMember(tx, { organization_id: c.organization_id, user_id: personId, role, created_at: now, active_at: null });
      await insertEvent(tx, { at: now, type: "organization.member_added", userId: personId, data: { organizationId: c.organization_id, role, source: `saml-${c.id}` } });
    } else if (m.role !== orgs.ownerRole && groups.length > 0 && m.role !== role) {
      await orgs.setMemberRole(tx, c.organization_id, m.user_id, role);
      await insertEvent(tx, { at: now, type: "organization.member_role_changed", userId: personId, data: { organizationId: c.organization_id, role, from: m.role, source: `saml-${c.id}` } });
    }
  });
  return { userId: up.recipeUserId };
}
