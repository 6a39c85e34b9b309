import { ENTERPRISE_SCHEMA, GROUP_SCHEMA, USER_SCHEMA, attr, type Attributes } from "./scim-resources.js";
import type { ScimGroupRow, ScimUserRow } from "./store.js";

/** How authsvc answers SCIM resources and its discovery documents (RFC 7643 §4–7, RFC 7644 §4). */

const iso = (ms: number) => new Date(Number(ms)).toISOString();

/** A User as the directory wrote it, with what the server owns: id, active, groups, meta. */
export function toScimUser(row: ScimUserRow, groups: ReadonlyArray<{ id: string; name: string }>, base: string): Attributes {
  const kept = JSON.parse(row.resource) as Attributes;
  const schemas = attr(kept, ENTERPRISE_SCHEMA) !== undefined ? [USER_SCHEMA, ENTERPRISE_SCHEMA] : [USER_SCHEMA];
  return {
    schemas, id: row.id, ...kept, ...(row.external_id ? { externalId: row.external_id } : {}), active: row.active === 1,
    groups: groups.map((g) => ({ value: g.id, display: g.name, $ref: `${base}/Groups/${g.id}` })),
    meta: { resourceType: "User", created: iso(row.created_at), lastModified: iso(row.updated_at), location: `${base}/Users/${row.id}` },
  };
}

export function toScimGroup(row: ScimGroupRow, members: ReadonlyArray<{ id: string; userName: string }> | undefined, base: string): Attributes {
  return {
    schemas: [GROUP_SCHEMA], id: row.id, displayName: row.display_name, ...(row.external_id ? { externalId: row.external_id } : {}),
    ...(members ? { members: members.map((m) => ({ value: m.id, display: m.userName, $ref: `${base}/Users/${m.id}` })) } : {}),
    meta: { resourceType: "Group", created: iso(row.created_at), lastModified: iso(row.updated_at), location: `${base}/Groups/${row.id}` },
  };
}

export function serviceProviderConfig(base: string): Attributes {
  return {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"],
    documentationUri: "https://github.com/authsvc/authsvc/blob/main/docs/enterprise-sso.md",
    patch: { supported: true }, bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: 200 }, changePassword: { supported: false }, sort: { supported: false }, etag: { supported: false },
    authenticationSchemes: [{ type: "oauthbearertoken", name: "OAuth Bearer Token", description: "The organization's SCIM token (authsvc orgs scim-token <org>)", primary: true }],
    meta: { resourceType: "ServiceProviderConfig", location: `${base}/ServiceProviderConfig` },
  };
}

export function resourceTypes(base: string): Attributes[] {
  return [
    { schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"], id: "User", name: "User", endpoint: "/Users", schema: USER_SCHEMA,
      schemaExtensions: [{ schema: ENTERPRISE_SCHEMA, required: false }], meta: { resourceType: "ResourceType", location: `${base}/ResourceTypes/User` } },
    { schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"], id: "Group", name: "Group", endpoint: "/Groups", schema: GROUP_SCHEMA,
      meta: { resourceType: "ResourceType", location: `${base}/ResourceTypes/Group` } },
  ];
}

type Attr = { name: string; type?: string; multiValued?: boolean; required?: boolean; caseExact?: boolean; mutability?: string; uniqueness?: string; subAttributes?: Attr[] };
const str = (name: string, more: Partial<Attr> = {}): Attr => ({ name, type: "string", ...more });
const full = (a: Attr): Attributes => ({
  name: a.name, type: a.type ?? "string", multiValued: a.multiValued ?? false, required: a.required ?? false, caseExact: a.caseExact ?? false,
  mutability: a.mutability ?? "readWrite", returned: "default", uniqueness: a.uniqueness ?? "none", description: a.name,
  ...(a.subAttributes ? { subAttributes: a.subAttributes.map(full) } : {}),
});
const multi = (name: string): Attr => ({ name, type: "complex", multiValued: true, subAttributes: [str("value"), str("display"), str("type"), { name: "primary", type: "boolean" }] });

const schemaList: ReadonlyArray<{ id: string; name: string; attributes: Attr[] }> = [
  { id: USER_SCHEMA, name: "User", attributes: [
    str("userName", { required: true, uniqueness: "server" }), str("displayName"), str("nickName"), str("title"), str("userType"), str("preferredLanguage"), str("locale"), str("timezone"),
    { name: "name", type: "complex", subAttributes: [str("formatted"), str("familyName"), str("givenName"), str("middleName")] },
    { name: "active", type: "boolean" }, multi("emails"), multi("phoneNumbers"), multi("addresses"),
    { name: "groups", type: "complex", multiValued: true, mutability: "readOnly", subAttributes: [str("value"), str("display")] },
  ] },
  { id: GROUP_SCHEMA, name: "Group", attributes: [str("displayName", { required: true }), { name: "members", type: "complex", multiValued: true, subAttributes: [str("value"), str("display")] }] },
  { id: ENTERPRISE_SCHEMA, name: "EnterpriseUser", attributes: [
    str("employeeNumber"), str("costCenter"), str("organization"), str("division"), str("department"),
    { name: "manager", type: "complex", subAttributes: [str("value"), str("displayName")] },
  ] },
];

export function schemas(base: string): Attributes[] {
  return schemaList.map((s) => ({
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:Schema"], id: s.id, name: s.name, description: s.name,
    attributes: s.attributes.map(full), meta: { resourceType: "Schema", location: `${base}/Schemas/${s.id}` },
  }));
}
