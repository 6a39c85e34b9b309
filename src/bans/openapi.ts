import { ADMIN_PREFIX } from "../http/admin/route.js";
import { adminOpenApi as a } from "../http/openapi/admin.js";
import { json, ref } from "../http/openapi/components.js";
import type { OpenApiArea } from "../http/openapi/types.js";
import { MAX_REASON } from "./input.js";

const op = (id: string, summary: string, rest: Record<string, unknown>) => ({ ...a.op(id, summary, rest), tags: ["bans"] });
const ms = { type: "integer", description: "epoch milliseconds" };
const nullableMs = { type: ["integer", "null"], description: "epoch milliseconds; null: for good" };
const counts = { type: "object", additionalProperties: { type: "array", items: { type: "string" } }, description: "what ended, by way in (sessions, oauth-grants…): their ids" };

/** The admin API's bans (src/bans/admin.ts). */
export const bansAdminArea: OpenApiArea = {
  tag: { name: "bans", description: "Admin API: ban a person (for good or until a time): every way in ends at once and every sign-in method answers its generic refusal; unban" },
  prefix: () => ADMIN_PREFIX,
  paths: {
    "/users/{id}/ban": {
      get: op("adminGetBan", "The person's ban in force, or null", { parameters: [a.userId], responses: { 200: json("the ban", a.object({ ban: { oneOf: [ref("Ban"), { type: "null" }] } })), ...a.errorsFor(400) } }),
      post: op("adminBanUser", "Ban the person: every session and app's grant ends now, every sign-in is refused until the ban lifts", {
        parameters: [a.userId],
        requestBody: a.body(a.object({
          until: { oneOf: [{ type: "string", description: "a time (2027-01-31, 2027-01-31T09:00:00Z: a date is midnight UTC) or a duration from now (7d, 12h)" }, ms], description: "when the ban lifts by itself (in the future); absent: for good" },
          reason: { type: "string", maxLength: MAX_REASON, description: "why: kept with the ban, and mailed with `mail`" },
          mail: { type: "boolean", description: "tell the person by mail at their verified addresses (default false)" },
        }, []), false),
        responses: { 200: json("banned", a.object({ ban: ref("Ban"), endedWaysIn: counts, mailed: { type: "integer", description: "how many addresses were mailed" } })), ...a.bodyErrors() },
      }),
    },
    "/users/{id}/unban": {
      post: op("adminUnbanUser", "Lift the person's ban", {
        parameters: [a.userId], responses: { 200: json("`lifted` is false when no ban was in force", a.object({ userId: { type: "string" }, lifted: { type: "boolean" } })), ...a.errorsFor(400) },
      }),
    },
  },
  schemas: {
    Ban: a.object({
      userId: { type: "string", description: "the person" }, reason: { type: ["string", "null"] }, until: nullableMs, since: ms,
      source: { type: "string", description: "who banned them: cli, admin-api, admin:<id> (the dashboard)" },
    }),
  },
};
