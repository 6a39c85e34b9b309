import type { CoreContext } from "../core/context.js";
import { badInput } from "../core/errors.js";
import { setPersonLocale } from "../store/person-locales.js";
import type { AccountSubject } from "./reauth.js";

/**
 * The locale my mail is written in (issue 48), chosen on "My account": one of the offered locales
 * (`--locales`), stored for the person in one transaction. Anything else is refused, nothing changed.
 */
export async function setMyLocale(ctx: CoreContext, who: AccountSubject, locale: unknown): Promise<string> {
  if (typeof locale !== "string" || !(ctx.words.offered as readonly string[]).includes(locale)) throw badInput(`locale must be one of ${ctx.words.offered.join(", ")}`);
  await ctx.store.writeTx((tx) => setPersonLocale(tx, who.personId, locale, ctx.clock.now()));
  return locale;
}
