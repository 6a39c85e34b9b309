import { defineEventHandler } from "h3";
import { AuthError } from "../core/errors.js";
import { describeEnded } from "../core/ways-in.js";
import type { AdminRoute } from "../http/admin/route.js";
import { pathParam } from "../http/admin/input.js";
import { readJsonBody } from "../http/body.js";
import type { PersonPagePart, PersonPanel } from "../http/person-panels.js";
import { banPerson, getBan, unbanPerson, type Ban } from "./bans.js";
import { MAX_REASON, parseReason, parseUntil } from "./input.js";

const noUser = () => new AuthError("NOT_FOUND", "No such user");
const banJson = (b: Ban | undefined) => (b === undefined ? null : b);

/** The admin API's bans (docs/security.md, "Bans"). */
export const banAdminRoutes: readonly AdminRoute[] = [
  // GET /users/:id/ban: the ban in force, or null.
  {
    method: "GET", path: "/users/:id/ban", handler: (deps) => defineEventHandler(async (event) => {
      const b = await getBan(deps.ctx, pathParam(event, "id"));
      if (b === null) throw noUser();
      return { ban: banJson(b) };
    }),
  },
  // POST /users/:id/ban {until?, reason?, mail?}: bans the person, ends every way in.
  {
    method: "POST", path: "/users/:id/ban", handler: (deps) => defineEventHandler(async (event) => {
      const id = pathParam(event, "id");
      const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
      const until = parseUntil(body.until, deps.ctx.clock.now());
      const reason = parseReason(body.reason);
      if (body.mail !== undefined && typeof body.mail !== "boolean") throw new AuthError("BAD_INPUT", "mail must be true or false");
      const r = await banPerson(deps.ctx, id, { until, reason, mail: body.mail === true, source: "admin-api" });
      if (!r) throw noUser();
      return { ban: r.ban, endedWaysIn: r.ended, mailed: r.mailed };
    }),
  },
  // POST /users/:id/unban: lifts the ban (`lifted` false when none was in force).
  {
    method: "POST", path: "/users/:id/unban", handler: (deps) => defineEventHandler(async (event) => {
      const r = await unbanPerson(deps.ctx, pathParam(event, "id"), "admin-api");
      if (!r) throw noUser();
      return r;
    }),
  },
];

/** The dashboard's ban panel: the ban in force with an Unban button, or a form to ban. */
const banPanel: PersonPanel<Ban | undefined | null> = {
  id: "ban",
  title: "Ban",
  place: "after-locks",
  load: (ctx, person) => getBan(ctx, person.id),
  render: (b, k, person) => {
    if (b === null) return "";
    if (b) {
      const facts = k.facts([
        ["State", k.badge("banned", "bad")],
        ["Until", b.until === null ? "further notice" : k.time(b.until)],
        ["Reason", b.reason ? k.escape(b.reason) : '<span class="muted">none given</span>'],
        ["Since", `${k.time(b.since)} by ${k.escape(b.source)}`],
      ]);
      return `${facts}<div class="actions">${k.button("unban", "Lift the ban", `on ${person.email}`)}</div>`;
    }
    return `<p>Not banned. A ban ends every session and connected app at once and refuses every sign-in until it lifts.</p>
<form method="post" action="${k.escape(k.action("ban"))}" class="stack">${k.csrfField}
<label for="ban-reason">Reason (kept with the ban; mailed if you tell them)</label>
<input id="ban-reason" name="reason" type="text" maxlength="${MAX_REASON}" autocomplete="off">
<label for="ban-until">Until (a date such as 2027-01-31, or a duration such as 7d; empty: for good)</label>
<input id="ban-until" name="until" type="text" autocomplete="off" spellcheck="false" aria-describedby="ban-until-hint">
<p id="ban-until-hint" class="muted">Dates are read as UTC.</p>
<label><input name="mail" type="checkbox" value="1"> Tell them by mail</label>
<button type="submit" class="danger">Ban ${k.escape(person.email || person.id)}</button>
</form>`;
  },
};

/** On the dashboard's person page: the ban panel and its two actions (the same functions as the CLI and the admin API). */
export const bansPersonPage: PersonPagePart = {
  panels: [banPanel],
  actions: [
    {
      path: "ban",
      run: async (ctx, person, { form, source }) => {
        let until: number | undefined;
        let reason: string | undefined;
        try {
          until = parseUntil(form.get("until")?.trim() || undefined, ctx.clock.now());
          reason = parseReason(form.get("reason") ?? undefined);
        } catch (err) {
          if (err instanceof AuthError) return { kind: "error", text: `Not banned: ${err.message}.` };
          throw err;
        }
        const r = await banPerson(ctx, person.id, { until, reason, mail: form.get("mail") === "1", source });
        if (!r) return { kind: "error", text: "No such user.", gone: true };
        return { kind: "ok", text: `Banned: ended ${describeEnded(ctx, r.ended)}${r.mailed ? "; they were mailed" : ""}.` };
      },
    },
    {
      path: "unban",
      run: async (ctx, person, { source }) => {
        const r = await unbanPerson(ctx, person.id, source);
        if (!r) return { kind: "error", text: "No such user.", gone: true };
        return { kind: "ok", text: r.lifted ? "The ban is lifted: they may sign in again." : "They were not banned." };
      },
    },
  ],
};
