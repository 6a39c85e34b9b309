import type { Kysely } from "kysely";
import type { Dialect } from "../database.js";
import * as m001 from "./001-initial.js";
import * as m001EmailPassword from "../../methods/email-password/migrations/001-initial.js";
import * as m001ThirdParty from "../../methods/third-party/migrations/001-initial.js";
import * as m002 from "./002-rate-limits.js";
import * as m003 from "./003-hardening.js";
import * as m004 from "./004-admin.js";
import * as m005 from "./005-account-linking.js";
import * as m006 from "../../methods/passwordless/migrations/006-passwordless.js";
import * as m007 from "./007-mfa.js";
import * as m007Totp from "../../methods/totp/migrations/007-mfa.js";
import * as m008 from "../../methods/webauthn/migrations/008-webauthn.js";
import * as m009 from "../../webhooks/migrations/009-webhooks.js";
import * as m010Roles from "../../roles/migrations/010-roles-metadata.js";
import * as m010Metadata from "../../metadata/migrations/010-roles-metadata.js";
import * as m010 from "./010-roles-metadata.js";
import * as m010Account from "../../account/migrations/010-roles-metadata.js";
import * as m011Dashboard from "../../dashboard/migrations/011-admins.js";
import * as m011 from "./011-admins.js";
import * as m012 from "./012-user-search.js";
import * as m013 from "./013-ops-listings.js";
import * as m013Webhooks from "../../webhooks/migrations/013-ops-listings.js";
import * as m014 from "../../oauth-provider/migrations/014-oauth-provider.js";
import * as m016 from "../../organizations/migrations/016-organizations.js";
import * as m017 from "./017-moved-sessions.js";
import * as m018 from "../../organizations/migrations/018-organization-domains.js";
import * as m019 from "../../protection/migrations/019-protection.js";
import * as m020 from "../../roles/migrations/020-organization-roles.js";
import * as m021 from "../../cdi/migrations/021-cdi.js";
import * as m022 from "../../bans/migrations/022-bans-audit.js";
import * as m022Audit from "../../audit/migrations/022-audit.js";
import * as m022Devices from "../../security-mails/migrations/022-security-mails.js";
import * as m023 from "../../sso/migrations/023-sso-scim.js";
import * as m024 from "./024-person-locales.js";
import * as m025 from "./025-support-sessions.js";
import * as m025Support from "../../support-sessions/migrations/025-support-sessions.js";
import * as m026 from "../../sso/migrations/026-sso-oidc.js";
import * as m027 from "../../sso/migrations/027-sso-required.js";

export interface Migration {
  name: string;
  up(db: Kysely<any>, dialect: Dialect): Promise<void>;
}

/**
 * Every migration, in order: the one list that orders the kernel's and the rooms' (a room keeps its
 * tables' migrations beside its rules, e.g. methods/passwordless/migrations/, and is listed here
 * once per migration, because a later one may build on an earlier one of another room). A shipped
 * migration whose tables belong to several rooms is composed from their parts under its one name.
 * Append only; never change what one that has shipped creates. Migrations import only kysely, so this list is a leaf.
 */
/** One shipped migration made of parts kept in several rooms, run in this order (the order it always created them in). */
const composed = (...parts: ReadonlyArray<Migration["up"]>): Migration["up"] => async (db, dialect) => {
  for (const part of parts) await part(db, dialect);
};

export const migrations: readonly Migration[] = [
  { name: "001-initial", up: composed(m001.users, m001EmailPassword.up, m001ThirdParty.up, m001.up) },
  { name: "002-rate-limits", up: m002.up },
  { name: "003-hardening", up: m003.up },
  { name: "004-admin", up: m004.up },
  { name: "005-account-linking", up: m005.up },
  { name: "006-passwordless", up: m006.up },
  { name: "007-mfa", up: composed(m007.up, m007Totp.up) },
  { name: "008-webauthn", up: m008.up },
  { name: "009-webhooks", up: m009.up },
  { name: "010-roles-metadata", up: composed(m010Roles.up, m010Metadata.up, m010.up, m010Account.up) },
  { name: "011-admins", up: composed(m011Dashboard.up, m011.up) },
  { name: "012-user-search", up: m012.up },
  { name: "013-ops-listings", up: composed(m013.up, m013Webhooks.up) },
  { name: "014-oauth-provider", up: m014.up },
  { name: "016-organizations", up: m016.up },
  { name: "017-moved-sessions", up: m017.up },
  { name: "018-organization-domains", up: m018.up },
  { name: "019-protection", up: m019.up },
  { name: "020-organization-roles", up: m020.up },
  { name: "021-cdi", up: m021.up },
  { name: "022-bans-audit", up: composed(m022.up, m022Audit.up, m022Devices.up) },
  { name: "023-sso-scim", up: m023.up },
  { name: "024-person-locales", up: m024.up },
  { name: "025-support-sessions", up: composed(m025.up, m025Support.up) },
  { name: "026-sso-oidc", up: m026.up },
  { name: "027-sso-required", up: m027.up },
];
