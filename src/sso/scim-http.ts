import { createRouter, defineEventHandler, getQuery, getRequestHeader, getRouterParam, setResponseHeader, setResponseStatus, type EventHandler, type H3Event } from "h3";
import { parse, filter as toPredicate, type Filter } from "scim2-parse-filter";
import { AuthError, badInput } from "../core/errors.js";
import { readJsonBody } from "../http/body.js";
import type { HttpDeps } from "../http/deps.js";
import { errorResponse } from "../http/errors.js";
import { hashToken } from "../util/random.js";
import { createScimGroup, deleteScimGroup, getScimGroup, patchScimGroup, replaceScimGroup } from "./scim-groups.js";
import { ERROR_SCHEMA, LIST_SCHEMA, type Attributes } from "./scim-resources.js";
import { createScimUser, deleteScimUser, getScimUser, patchScimUser, replaceScimUser } from "./scim-users.js";
import { resourceTypes, schemas, serviceProviderConfig, toScimGroup, toScimUser } from "./scim-views.js";
import * as store from "./store.js";

import { SCIM_PREFIX } from "./scim-prefix.js";

export { SCIM_PREFIX };
/** Directories send whole groups at once: a larger body than the API's, still bounded. */
const SCIM_BODY_LIMIT = 1024 * 1024;
const MAX_COUNT = 200;

/**
 * The SCIM 2.0 service (RFC 7644) under /scim/v2, mounted before CORS (a directory calls it server
 * to server, never a browser). The organization is the bearer token's: one token, one
 * organization, so no request can reach another organization's people. Every answer is
 * application/scim+json; every refusal is in SCIM's error schema with the HTTP status.
 */
export function createScimMount(deps: HttpDeps): EventHandler {
  const router = createRouter({ preemptive: true });
  const base = `${deps.ctx.config.publicUrl.replace(/\/+$/, "")}${SCIM_PREFIX}`;
  const org = (event: H3Event) => event.context.scimOrganization as string;
  const id = (event: H3Event) => getRouterParam(event, "id", { decode: true }) ?? "";
  const body = (event: H3Event) => readJsonBody(event, SCIM_BODY_LIMIT);
  const created = (event: H3Event, value: Attributes) => { setResponseStatus(event, 201); return value; };
  const userView = async (row: store.ScimUserRow) => {
    const memberships = await store.listGroupMembers(deps.ctx.store.db, row.organization_id);
    const groups = await store.listGroups(deps.ctx.store.db, row.organization_id);
    const mine = new Set(memberships.filter((m) => m.scim_user_id === row.id).map((m) => m.group_id));
    return toScimUser(row, groups.filter((g) => mine.has(g.id)).map((g) => ({ id: g.id, name: g.display_name })), base);
  };
  const groupView = async (row: store.ScimGroupRow, withMembers = true) => {
    if (!withMembers) return toScimGroup(row, undefined, base);
    const members = (await store.listGroupMembers(deps.ctx.store.db, row.organization_id)).filter((m) => m.group_id === row.id);
    return toScimGroup(row, members.map((m) => ({ id: m.scim_user_id, userName: m.user_name })), base);
  };
  const h = (fn: (event: H3Event) => Promise<unknown> | unknown) => defineEventHandler(async (event) => fn(event));

  router.get(`${SCIM_PREFIX}/ServiceProviderConfig`, h(() => serviceProviderConfig(base)));
  router.get(`${SCIM_PREFIX}/ResourceTypes`, h((event) => listResponse(event, resourceTypes(base))));
  router.get(`${SCIM_PREFIX}/ResourceTypes/:id`, h((event) => resourceTypes(base).find((r) => r.id === id(event)) ?? notFound("ResourceType")));
  router.get(`${SCIM_PREFIX}/Schemas`, h((event) => listResponse(event, schemas(base))));
  router.get(`${SCIM_PREFIX}/Schemas/:id`, h((event) => schemas(base).find((s) => s.id === id(event)) ?? notFound("Schema")));

  router.get(`${SCIM_PREFIX}/Users`, h(async (event) => {
    const rows = await store.listUsers(deps.ctx.store.db, org(event));
    return listResponse(event, await Promise.all(rows.map(userView)), true);
  }));
  router.post(`${SCIM_PREFIX}/Users`, h(async (event) => created(event, await userView(await createScimUser(deps.ctx, org(event), await body(event))))));
  router.get(`${SCIM_PREFIX}/Users/:id`, h(async (event) => userView(await getScimUser(deps.ctx, org(event), id(event)))));
  router.put(`${SCIM_PREFIX}/Users/:id`, h(async (event) => userView(await replaceScimUser(deps.ctx, org(event), id(event), await body(event)))));
  router.patch(`${SCIM_PREFIX}/Users/:id`, h(async (event) => userView(await patchScimUser(deps.ctx, org(event), id(event), await body(event)))));
  router.delete(`${SCIM_PREFIX}/Users/:id`, h(async (event) => { await deleteScimUser(deps.ctx, org(event), id(event)); return noContent(event); }));

  router.get(`${SCIM_PREFIX}/Groups`, h(async (event) => {
    const rows = await store.listGroups(deps.ctx.store.db, org(event));
    const withMembers = !String(getQuery(event).excludedAttributes ?? "").toLowerCase().split(",").map((s) => s.trim()).includes("members");
    return listResponse(event, await Promise.all(rows.map((r) => groupView(r, withMembers))), true);
  }));
  router.post(`${SCIM_PREFIX}/Groups`, h(async (event) => created(event, await groupView(await createScimGroup(deps.ctx, org(event), await body(event))))));
  router.get(`${SCIM_PREFIX}/Groups/:id`, h(async (event) => groupView(await getScimGroup(deps.ctx, org(event), id(event)))));
  router.put(`${SCIM_PREFIX}/Groups/:id`, h(async (event) => groupView(await replaceScimGroup(deps.ctx, org(event), id(event), await body(event)))));
  router.patch(`${SCIM_PREFIX}/Groups/:id`, h(async (event) => groupView(await patchScimGroup(deps.ctx, org(event), id(event), await body(event)))));
  router.delete(`${SCIM_PREFIX}/Groups/:id`, h(async (event) => { await deleteScimGroup(deps.ctx, org(event), id(event)); return noContent(event); }));

  return defineEventHandler(async (event) => {
    setResponseHeader(event, "content-type", "application/scim+json; charset=utf-8");
    try {
      const organization = await authenticate(deps, event);
      if (!organization) {
        setResponseHeader(event, "www-authenticate", 'Bearer realm="authsvc-scim"');
        return scimError(event, 401, "A valid SCIM bearer token is required (authsvc orgs scim-token <org>)");
      }
      event.context.scimOrganization = organization;
      const answer = await router.handler(event);
      return answer === undefined ? scimError(event, 404, "Not Found") : answer;
    } catch (err) {
      const r = errorResponse(err, deps.ctx.logger, event);
      const scimType = r.status === 409 ? "uniqueness" : r.status === 400 ? (err instanceof AuthError && /filter/i.test(err.message) ? "invalidFilter" : "invalidValue") : undefined;
      return scimError(event, r.status, String(r.body.message ?? "Error"), scimType);
    }
  });
}

/** The organization whose token the request carries (undefined: none, or not a token of ours). */
async function authenticate(deps: HttpDeps, event: H3Event): Promise<string | undefined> {
  const header = getRequestHeader(event, "authorization") ?? "";
  const m = /^Bearer\s+([A-Za-z0-9_-]{20,200})\s*$/i.exec(header);
  return m ? store.findTokenOrganization(deps.ctx.store.db, hashToken(m[1])) : undefined;
}

function scimError(event: H3Event, status: number, detail: string, scimType?: string): Attributes {
  setResponseStatus(event, status);
  return { schemas: [ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail };
}

function noContent(event: H3Event): null {
  setResponseStatus(event, 204);
  return null;
}

const notFound = (what: string) => { throw new AuthError("NOT_FOUND", `No such ${what}`); };

/** Attributes whose values compare case-exactly (RFC 7643: id, externalId and references); others compare in any case. */
const CASE_EXACT = /^(id|externalid|members(\.value)?|groups(\.value)?)$/i;

function lowerFilter(f: Filter): Filter {
  if ("filters" in f) return { ...f, filters: f.filters.map(lowerFilter) } as Filter;
  if ("valFilter" in f) return { ...f, valFilter: lowerFilter(f.valFilter) } as Filter;
  if ("compValue" in f && typeof f.compValue === "string" && !CASE_EXACT.test(f.attrPath)) return { ...f, compValue: f.compValue.toLowerCase() } as Filter;
  if ("filter" in f) return { ...f, filter: lowerFilter((f as { filter: Filter }).filter) } as Filter;
  return f;
}

function lowered(v: unknown, key = ""): unknown {
  if (typeof v === "string") return CASE_EXACT.test(key) ? v : v.toLowerCase();
  if (Array.isArray(v)) return v.map((x) => lowered(x, key));
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, lowered(x, key ? `${key}.${k}` : k)]));
  return v;
}

/** A ListResponse: `filter` (eq, ne, co, sw, ew, pr, gt/ge/lt/le, and, or, not, […]), then startIndex and count (RFC 7644 §3.4.2). */
function listResponse(event: H3Event, all: Attributes[], filterable = false): Attributes {
  const q = getQuery(event);
  let list = all;
  if (filterable && typeof q.filter === "string" && q.filter.trim() !== "") {
    let predicate: (o: unknown) => boolean;
    try { predicate = toPredicate(lowerFilter(parse(q.filter))) as (o: unknown) => boolean; } catch { throw badInput(`the filter ${q.filter} is not one SCIM's filter syntax allows`); }
    list = all.filter((r) => predicate(lowered(r)));
  }
  const startIndex = Math.max(1, Number.parseInt(String(q.startIndex ?? "1"), 10) || 1);
  const requested = q.count === undefined ? MAX_COUNT : Number.parseInt(String(q.count), 10);
  const count = Number.isFinite(requested) ? Math.min(Math.max(0, requested), MAX_COUNT) : MAX_COUNT;
  const page = list.slice(startIndex - 1, startIndex - 1 + count);
  return { schemas: [LIST_SCHEMA], totalResults: list.length, startIndex, itemsPerPage: page.length, Resources: page };
}
