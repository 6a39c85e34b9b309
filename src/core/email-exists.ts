import { findCredentialByEmail } from "../store/users.js";
import type { CoreContext } from "./context.js";
import { canonicalEmail } from "./emails.js";

/**
 * Whether an email/password login exists for the address (third-party-only users do not count),
 * after the same canonicalisation as sign-up.
 */
export async function doesEmailPasswordAccountExist(ctx: CoreContext, email: string): Promise<boolean> {
  return (await findCredentialByEmail(ctx.store.db, canonicalEmail(email))) !== undefined;
}
