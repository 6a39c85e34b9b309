import { badInput } from "../core/errors.js";

/**
 * SCIM 2.0 resources (RFC 7643) as authsvc stores and answers them: a User's attributes are kept
 * as the directory sent them (JSON in scim_users.resource), minus what the server owns (id, meta,
 * groups, schemas), and read back with those added. The PATCH forms of the directories that send
 * them (RFC 7644 §3.5.2, with Entra ID's capitalised ops and string booleans) are applied here.
 */
export const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";
export const GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group";
export const ENTERPRISE_SCHEMA = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
export const LIST_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
export const PATCH_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
export const ERROR_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error";

export type Attributes = Record<string, unknown>;

// A password a directory sends (Okta may) is never kept: provisioned people sign in through their organization.
const SERVER_OWNED = new Set(["id", "meta", "groups", "schemas", "password"]);

/** The attributes of a User or Group body that the server keeps (never its own: id, meta, groups, schemas; never a password). */
export function keptAttributes(body: Attributes): Attributes {
  const out: Attributes = {};
  for (const [k, v] of Object.entries(body)) if (!SERVER_OWNED.has(k.toLowerCase()) && v !== undefined) out[k] = v;
  return out;
}

/** A SCIM boolean: true/false, or the strings "True"/"False" in any case (Entra ID sends those). */
export function readBoolean(value: unknown, name: string): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "string" && /^(true|false)$/i.test(value)) return value.toLowerCase() === "true";
  throw badInput(`${name} must be true or false`);
}

/** The value of an attribute by its name, whatever its case (SCIM attribute names are case-insensitive). */
export function attr(o: Attributes, name: string): unknown {
  const key = Object.keys(o).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : o[key];
}

/** The address a User is provisioned with: its primary email, else its first, else its userName when that is an address. */
export function emailOf(resource: Attributes): string | undefined {
  const emails = attr(resource, "emails");
  if (Array.isArray(emails)) {
    const list = emails.filter((e): e is Attributes => typeof e === "object" && e !== null && typeof attr(e, "value") === "string");
    const primary = list.find((e) => readBooleanOr(attr(e, "primary"))) ?? list[0];
    if (primary) return String(attr(primary, "value"));
  }
  const userName = attr(resource, "userName");
  return typeof userName === "string" && userName.includes("@") ? userName : undefined;
}

const readBooleanOr = (v: unknown): boolean => { try { return readBoolean(v, "primary"); } catch { return false; } };

export interface PatchOp { op: "add" | "replace" | "remove"; path?: string; value?: unknown }

/** A PatchOp request's operations, ops lowercased (Entra ID sends "Replace", "Add", "Remove"). */
export function readPatch(body: Attributes): PatchOp[] {
  const schemas = body.schemas;
  if (!Array.isArray(schemas) || !schemas.includes(PATCH_SCHEMA)) throw badInput(`a PATCH body names the schema ${PATCH_SCHEMA}`);
  const ops = attr(body, "Operations");
  if (!Array.isArray(ops) || ops.length === 0) throw badInput("Operations must be a list of operations");
  return ops.map((o) => {
    if (typeof o !== "object" || o === null) throw badInput("each operation is an object");
    const op = String(attr(o as Attributes, "op") ?? "").toLowerCase();
    if (op !== "add" && op !== "replace" && op !== "remove") throw badInput("op must be add, replace or remove");
    const path = attr(o as Attributes, "path");
    if (path !== undefined && typeof path !== "string") throw badInput("path must be a string");
    if (op === "remove" && !path) throw badInput("a remove operation needs a path");
    return { op, path: path || undefined, value: attr(o as Attributes, "value") };
  });
}

/**
 * Applies operations to a User's kept attributes (a copy): a path (`active`, `name.givenName`,
 * `emails[type eq "work"].value`, an extension's `urn:…:User:department`), or none with an object
 * value whose keys are paths (Okta's and Entra ID's `{"op":"replace","value":{"active":false}}`).
 */
export function patchAttributes(resource: Attributes, ops: readonly PatchOp[]): Attributes {
  const out = structuredClone(resource);
  for (const o of ops) {
    if (o.path === undefined) {
      if (typeof o.value !== "object" || o.value === null || Array.isArray(o.value)) throw badInput("an operation without a path needs an object value");
      for (const [k, v] of Object.entries(o.value as Attributes)) setPath(out, k, v, o.op);
    } else setPath(out, o.path, o.value, o.op);
  }
  return out;
}

const FILTERED = /^([A-Za-z0-9_$-]+)\[\s*([A-Za-z0-9_$-]+)\s+eq\s+"([^"]*)"\s*\](?:\.([A-Za-z0-9_$-]+))?$/i;

function setPath(target: Attributes, rawPath: string, value: unknown, op: PatchOp["op"]): void {
  let obj = target;
  let path = rawPath;
  // An extension's attribute: "urn:…:enterprise:2.0:User:department" (or the extension object itself).
  if (path.toLowerCase().startsWith("urn:")) {
    const schema = [ENTERPRISE_SCHEMA, USER_SCHEMA].find((s) => path.toLowerCase().startsWith(s.toLowerCase()));
    if (!schema) throw badInput(`unknown attribute ${rawPath}`);
    path = path.slice(schema.length).replace(/^:/, "");
    if (schema === ENTERPRISE_SCHEMA) {
      if (path === "") return assign(target, ENTERPRISE_SCHEMA, op === "remove" ? undefined : value, op);
      obj = child(target, ENTERPRISE_SCHEMA);
    }
  }
  const filtered = FILTERED.exec(path);
  if (filtered) {
    const [, list, key, match, sub] = filtered;
    const items = arrayOf(obj, list);
    let item = items.find((i) => String(attr(i, key) ?? "").toLowerCase() === match.toLowerCase());
    if (op === "remove") {
      if (item && sub) delete item[Object.keys(item).find((k) => k.toLowerCase() === sub.toLowerCase()) ?? sub];
      else if (item) items.splice(items.indexOf(item), 1);
      return;
    }
    if (!item) { item = { [key]: match }; items.push(item); }
    if (sub) assign(item, sub, value, op);
    else if (typeof value === "object" && value !== null) Object.assign(item, value);
    return;
  }
  const parts = path.split(".");
  for (const p of parts.slice(0, -1)) obj = child(obj, p);
  assign(obj, parts[parts.length - 1], op === "remove" ? undefined : value, op);
}

function assign(obj: Attributes, name: string, value: unknown, op: PatchOp["op"]): void {
  const key = Object.keys(obj).find((k) => k.toLowerCase() === name.toLowerCase()) ?? name;
  if (op === "remove" || value === undefined || value === null) { delete obj[key]; return; }
  // "add" to a multi-valued attribute appends; to anything else it sets (RFC 7644 §3.5.2.1).
  if (op === "add" && Array.isArray(obj[key]) && Array.isArray(value)) obj[key] = [...(obj[key] as unknown[]), ...value];
  else if (op === "add" && isObject(obj[key]) && isObject(value)) obj[key] = { ...(obj[key] as Attributes), ...(value as Attributes) };
  else obj[key] = value;
}

const isObject = (v: unknown): v is Attributes => typeof v === "object" && v !== null && !Array.isArray(v);

function child(obj: Attributes, name: string): Attributes {
  const key = Object.keys(obj).find((k) => k.toLowerCase() === name.toLowerCase()) ?? name;
  if (!isObject(obj[key])) obj[key] = {};
  return obj[key] as Attributes;
}

function arrayOf(obj: Attributes, name: string): Attributes[] {
  const key = Object.keys(obj).find((k) => k.toLowerCase() === name.toLowerCase()) ?? name;
  if (!Array.isArray(obj[key])) obj[key] = [];
  return obj[key] as Attributes[];
}
