import { defineEventHandler } from "h3";
import type { CoreContext } from "../core/context.js";
import { badInput } from "../core/errors.js";
import { websiteLink } from "../core/mail-queue.js";
import { countEnded, endWaysIn } from "../core/ways-in.js";
import { readJsonBody } from "../http/body.js";
import type { HttpDeps } from "../http/deps.js";
import type { Route } from "../http/route.js";
import { insertEvent } from "../store/events.js";
import { takeToken } from "../store/one-time-tokens.js";
import { hashToken } from "../util/random.js";
import "./tables.js";

export type NotMeResult = { status: "OK"; endedWaysIn: Record<string, number>; resetPasswordUrl: string } | { status: "INVALID_TOKEN_ERROR" };

/**
 * "This wasn't me" (the new sign-in mail's link), in one transaction: the token is used up (one
 * of several concurrent submissions wins), every way in of the person ends, and the
 * `user.not_me` event records it; the answer says where to choose a new password.
 */
export async function notMe(ctx: CoreContext, token: string): Promise<NotMeResult> {
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    const row = await takeToken(tx, hashToken(token), "not_me");
    if (!row || Number(row.expires_at) <= now) return { status: "INVALID_TOKEN_ERROR" } as const;
    const ended = await endWaysIn(tx, ctx, { userId: row.user_id, reason: "not_me", source: "mail" });
    await insertEvent(tx, { at: now, type: "user.not_me", userId: row.user_id, data: { endedWaysIn: countEnded(ended), source: "mail" } });
    return { status: "OK", endedWaysIn: countEnded(ended), resetPasswordUrl: websiteLink(ctx, "reset-password") } as const;
  });
}

/** POST /security/not-me {"token"}: what the "this wasn't me" page calls. */
const notMeHandler = (deps: HttpDeps) => defineEventHandler(async (event) => {
  const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
  if (typeof body.token !== "string" || body.token.length === 0 || body.token.length > 256) throw badInput("token is required: the one in the mail's link");
  return notMe(deps.ctx, body.token);
});

export const securityMailRoutes: readonly Route[] = [
  { method: "POST", path: "/security/not-me", session: "none", handler: notMeHandler, limits: ["invalid-token-ip", "token-ip"] },
];
