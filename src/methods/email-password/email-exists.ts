import { findCredentialByEmail } from "./store.js";
import type { CoreContext } from "../../core/context.js";
import { canonicalEmail, isValidEmail } from "../../core/emails.js";

/**
 * Whether an email/password login exists for the address (people with other logins only do not count),
 * after the same canonicalisation and validation as sign-up.
 */
export async function doesEmailPasswordAccountExist(ctx: CoreContext, email: string): Promise<boolean> {
  const canonical = canonicalEmail(email);
  // No account can have an address sign-up refuses; and a NUL byte is not even storable in
  // PostgreSQL text, so the query itself would fail.
  if (!isValidEmail(canonical)) return false;
  return (await findCredentialByEmail(ctx.store.db, canonical)) !== undefined;
}
