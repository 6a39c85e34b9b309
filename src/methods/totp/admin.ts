import { defineEventHandler } from "h3";
import type { AdminRoute } from "../../http/admin/route.js";
import { AuthError } from "../../core/errors.js";
import { resetSecondFactor } from "./reset.js";
import type { HttpDeps } from "../../http/deps.js";
import { pathParam } from "../../http/admin/input.js";
import type { PersonPagePart, PersonPanel } from "../../http/person-panels.js";
import { findRequiredFactors } from "../../store/mfa.js";
import { countUnusedRecoveryCodes, findDevices } from "./store.js";

/** DELETE /users/:id/mfa: removes the user's second factor (devices, recovery codes), records an event and mails them. */
export const resetMfaHandler = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const r = await resetSecondFactor(deps.ctx, pathParam(event, "id"), "admin-api");
    if (r.status === "NOT_FOUND") throw new AuthError("NOT_FOUND", "No such user");
    return { userId: r.userId, removedDevices: r.removedDevices, changed: r.changed };
  });

/** The second factor's admin routes (under /admin/v1). */
export const totpAdminRoutes: readonly AdminRoute[] = [
  { method: "DELETE", path: "/users/:id/mfa", handler: resetMfaHandler },
];

/** What the dashboard shows of a person's second factor: device names (no secret), codes left, whether it is required. */
interface SecondFactorState { devices: Array<{ name: string; verified: boolean }>; recoveryCodesLeft: number; required: boolean }

/** The person page's "Second factor" panel (other rooms add their lines to it, e.g. a count of passkeys). */
const secondFactorPanel: PersonPanel<SecondFactorState> = {
  id: "mfa",
  title: "Second factor",
  place: "before-locks",
  load: async (ctx, person) => {
    const db = ctx.store.db;
    const [devices, recoveryCodesLeft, required] = await Promise.all([findDevices(db, person.id), countUnusedRecoveryCodes(db, person.id), findRequiredFactors(db, person.id)]);
    return { devices: devices.map((d) => ({ name: d.name, verified: d.verified_at !== null })), recoveryCodesLeft, required: required.includes("totp") };
  },
  render: (f, k, person) => {
    const on = f.devices.some((d) => d.verified);
    const state = on ? k.badge("set up", "ok") : f.devices.length ? k.badge("not confirmed", "warn") : '<span class="muted">not set up</span>';
    const names = f.devices.length ? ` — ${f.devices.map((d) => k.escape(d.name)).join(", ")}` : "";
    const facts = k.facts([["Authenticator app (TOTP)", state + names], ["Required at sign-in", f.required ? "yes" : "no"], ["Recovery codes left", String(f.recoveryCodesLeft)]]);
    const reset = f.devices.length || f.required ? `<div class="actions">${k.button("mfa/reset", "Reset second factor", `of ${person.email}`, { danger: true })}</div>` : "";
    return facts + reset;
  },
};

/** The second factor on the dashboard's person page: its panel and the reset (the same as DELETE /users/:id/mfa). */
export const totpPersonPage: PersonPagePart = {
  panels: [secondFactorPanel],
  actions: [{
    path: "mfa/reset",
    run: async (ctx, person, { source }) => {
      const res = await resetSecondFactor(ctx, person.id, source);
      if (res.status === "NOT_FOUND") return { kind: "error", text: "No such user.", gone: true };
      return { kind: "ok", text: res.changed ? "Second factor reset: they were mailed, and set a new one up at their next sign-in if required." : "They had no second factor to reset." };
    },
  }],
};
