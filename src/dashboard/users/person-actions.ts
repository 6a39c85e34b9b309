import { clearLimits } from "../../core/limits-admin.js";
import { linkUsers, unlinkUser } from "../../core/linking-admin.js";
import { revokeSessionByHandle, signOutEverywhere } from "../../core/session-admin.js";
import { describeEnded, totalEnded } from "../../core/ways-in.js";
import { findUsersByRef, setUserEmailVerified } from "../../core/user-directory.js";
import { canonicalEmail } from "../../core/emails.js";
import { AuthError } from "../../core/errors.js";
import { deleteUser, getUser, type UserView } from "../../core/users.js";
import type { ActingAdmin, PersonAction } from "../../http/person-panels.js";
import { clientAddress } from "../../http/limit-guard.js";
import { getRequestHeader } from "h3";
import { confirmAdminCode } from "../accounts/sign-in.js";
import { listUserSessions } from "../../core/session-admin.js";
import { done, type DashboardRequest, type DashboardResult } from "../kit.js";
import { personPath, USERS_PATH } from "./list-page.js";

/**
 * The actions on a person (POSTed forms, CSRF-checked by the mount). Each calls the core function
 * the CLI and the admin API call, with `r.source` so the event names the admin, then redirects back
 * to the person with what happened. Anything that does not belong to this person (a session handle,
 * a login id, an address) is refused before anything changes.
 */

type Action = (r: DashboardRequest, person: UserView) => Promise<DashboardResult>;

/** Wraps an action: the person must exist (else back to the search with a message). */
export function onPerson(action: Action): (r: DashboardRequest) => Promise<DashboardResult> {
  return async (r) => {
    const person = await getUser(r.ctx, r.params.id ?? "");
    if (!person) return done(USERS_PATH, "No such user: they may have been deleted.", "error");
    return action(r, person);
  };
}

const field = (r: DashboardRequest, name: string) => (r.form.get(name) ?? "").trim();
const back = (p: UserView, text: string, kind: "ok" | "error" = "ok") => done(personPath(p.id), text, kind);
const isMember = (p: UserView, recipeUserId: string) => p.loginMethods.some((m) => m.recipeUserId === recipeUserId) || p.id === recipeUserId;

export const markVerified: Action = async (r, p) => {
  const id = field(r, "recipeUserId");
  const verified = field(r, "verified");
  if (!isMember(p, id) || !["0", "1"].includes(verified)) return back(p, "Choose a login method of this user to mark.", "error");
  const res = await setUserEmailVerified(r.ctx, id, verified === "1", r.source);
  if (!res) return back(p, "That login method no longer exists.", "error");
  return back(p, res.changed ? `Marked ${verified === "1" ? "verified" : "unverified"}.` : `It was ${verified === "1" ? "verified" : "unverified"} already.`);
};

export const revokeOne: Action = async (r, p) => {
  const handle = field(r, "handle");
  const mine = (await listUserSessions(r.ctx, p.id)).some((s) => s.handle === handle);
  if (!mine) return back(p, "That session is not one of this user's live sessions.", "error");
  const res = await revokeSessionByHandle(r.ctx, handle, r.source);
  return back(p, res.status === "revoked" ? "Session revoked." : "That session had ended already.");
};

export const revokeAll: Action = async (r, p) => {
  const ended = await signOutEverywhere(r.ctx, p.id, r.source);
  return back(p, totalEnded(ended) === 0 ? "Nothing was signed in: no live session or connected app." : `Signed out everywhere: ended ${describeEnded(r.ctx, ended)}.`);
};

export const clearLocks: Action = async (r, p) => {
  const email = canonicalEmail(field(r, "email"));
  const addresses = new Set([p.email, ...p.loginMethods.map((m) => m.email)]);
  if (!addresses.has(email)) return back(p, "Only this user's own addresses can be cleared here.", "error");
  const res = await clearLimits(r.ctx, { email }, r.source);
  return back(p, res.buckets.length ? `Cleared ${res.buckets.join(", ")} on ${email}.` : `Nothing was limiting ${email}.`);
};

/** A room's action (Room.personPage): what it answers, shown on the person's page (or the search, when they are gone). */
export const roomAction = (action: PersonAction): Action => async (r, p) => {
  // Read from the request only when the room asks (the handlers' tests pass no real request).
  const ip = () => clientAddress(r.event, r.ctx.config) || undefined;
  const admin: ActingAdmin = {
    id: r.admin.id, email: r.admin.email,
    client: () => ({ ip: ip(), userAgent: getRequestHeader(r.event, "user-agent") }),
    confirmSecondFactor: (code) => confirmAdminCode(r.ctx, r.admin.id, code, ip() ?? null),
  };
  const res = await action.run(r.ctx, p, { form: r.form, source: r.source, admin });
  if (res.redirect !== undefined) return { redirect: res.redirect, toApi: true };
  return res.gone ? done(USERS_PATH, res.text, res.kind) : back(p, res.text, res.kind);
};

export const linkOther: Action = async (r, p) => {
  const ref = field(r, "other");
  if (!ref) return back(p, "Give the id or email of the user to link.", "error");
  const found = await findUsersByRef(r.ctx, ref);
  if (found.length === 0) return back(p, `No user is ${ref}.`, "error");
  if (found.length > 1) return back(p, `Several users have ${ref}: link by id instead (${found.map((u) => u.id).join(", ")}).`, "error");
  if (found[0].id === p.id) return back(p, "That is this user already.", "error");
  const res = await linkUsers(r.ctx, p.id, found[0].id, r.source);
  if (res.status === "NOT_FOUND") return back(p, `No user is ${ref}.`, "error");
  return back(p, `Linked ${found[0].email || found[0].id}: their login methods are this user's now.`);
};

export const unlinkMethod: Action = async (r, p) => {
  const id = field(r, "recipeUserId");
  if (!isMember(p, id)) return back(p, "Choose a login method of this user to unlink.", "error");
  const res = await unlinkUser(r.ctx, id, r.source);
  if (res.status !== "OK") return back(p, "That login method is not linked to another.", "error");
  // When the person's own first login leaves, the rest carry on under the next one's id.
  return done(personPath(res.remainingPersonId), `Unlinked login ${id}: it is a user of its own now.`);
};

export const removePerson: Action = async (r, p) => {
  const expected = p.email || p.id;
  const typed = field(r, "confirm");
  if (typed.toLowerCase() !== expected.toLowerCase()) return back(p, `Not deleted: type ${expected} exactly to confirm.`, "error");
  try {
    if (!(await deleteUser(r.ctx, p.id, r.source))) return done(USERS_PATH, "No such user.", "error");
  } catch (err) {
    // A room's refusal (the only owner of an organization), said on the person's page.
    if (err instanceof AuthError && err.code === "CONFLICT") return back(p, `Not deleted. ${err.message}`, "error");
    throw err;
  }
  return done(USERS_PATH, `Deleted ${expected}.`);
};
