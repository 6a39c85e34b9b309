import { defineEventHandler } from "h3";
import { AuthError } from "../../core/errors.js";
import { revokeSession } from "../../core/sessions.js";
import type { HttpDeps } from "../deps.js";
import { sessionOf } from "../guard.js";
import { clearTokens } from "../session-transport.js";

/**
 * POST /signout: revokes the session and clears tokens in the mode the access token came in. The route
 * declares a session without its row: the conditional revoke doubles as the session check (one database write, no extra read): an already
 * revoked session is 401 unauthorised with clearing.
 */
export const signOut = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const s = sessionOf(event);
    const revoked = await revokeSession(deps.ctx, s.sessionHandle, s.userId, "signout");
    clearTokens(event, deps.ctx.config, s.mode);
    if (!revoked) throw new AuthError("UNAUTHORISED", "unauthorised", { clearTokens: true });
    return { status: "OK" };
  });
