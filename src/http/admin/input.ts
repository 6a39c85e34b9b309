import { getQuery, getRouterParam, type H3Event } from "h3";
import { badInput } from "../../core/errors.js";
import type { UserView } from "../../core/users.js";
import { toUserJson } from "../../core/users.js";

/** A path parameter (h3 has already URL-decoded it). */
export function pathParam(event: H3Event, name: string): string {
  const v = getRouterParam(event, name, { decode: true });
  if (!v || v.length > 200) throw badInput(`Invalid ${name}`);
  return v;
}

/** A query parameter given once, or undefined. */
export function queryParam(event: H3Event, name: string): string | undefined {
  const v = getQuery(event)[name];
  if (v === undefined) return undefined;
  if (typeof v !== "string") throw badInput(`${name} must be given once`);
  return v;
}

/** A required string field of a JSON body. */
export function stringField(body: Record<string, unknown>, name: string): string {
  const v = body[name];
  if (typeof v !== "string") throw badInput(`${name} is required and must be a string`);
  return v;
}

/** An optional boolean field of a JSON body. */
export function booleanField(body: Record<string, unknown>, name: string, fallback?: boolean): boolean {
  const v = body[name] ?? fallback;
  if (typeof v !== "boolean") throw badInput(`${name} is required and must be true or false`);
  return v;
}

/** A user as the admin API shows it: the SuperTokens USER object plus the current email's state. */
export function adminUserJson(u: UserView) {
  return { ...toUserJson(u), verified: u.verified };
}
