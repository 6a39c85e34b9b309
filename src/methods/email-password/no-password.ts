import type { CoreContext } from "../../core/context.js";
import type { UserView } from "../../core/users.js";

/**
 * What the refusal of a password change or reset says after its subject when the login `id` has
 * no password: how it signs in instead, in the words its kind declares (LoginKind.names.signsInWith),
 * e.g. "signs in with a passkey and has no password".
 */
export function noPasswordWords(ctx: CoreContext, user: Pick<UserView, "loginMethods"> | undefined, id: string): string {
  const logins = (user?.loginMethods ?? []).filter((m) => m.recipeUserId === id);
  const ways = [...new Set(logins.flatMap((m) => ctx.logins.find((k) => k.recipeId === m.recipeId)?.names.signsInWith ?? []))];
  return ways.length ? `signs in with ${ways.join(" and ")} and has no password` : "has no password";
}
