import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";
import type { CoreContext } from "./context.js";
import type { LinkingSession } from "./login-policy.js";
import type { OpenedSession, SessionStart } from "./sessions.js";
import type { FieldError, UserView } from "./users.js";

/**
 * What a room outside the sign-in methods may do to a person's accounts (the CDI, an invitation's
 * sign-up, SCIM provisioning, a SAML sign-in), in neutral words: the kinds follow the facts of an
 * import (core/import-parts.ts ImportFacts: `password-hash`, `provider-identity`, `address-only`).
 * A sign-in method offers a kind in its declaration (Room.accounts); the composition root puts the
 * offers in the context once (kernel/offers.ts), and a consumer reaches one through `accountsOf`.
 * No room imports another: this is the one way across.
 */
export interface AccountOperations {
  /** Accounts with an address and a password. */
  password?: PasswordAccounts;
  /** Identities at an external provider (OAuth/OIDC, a SAML connection): the provider's id and its user's. */
  providerIdentities?: ProviderIdentities;
  /** People known by an address alone, who sign in by proving it (a code or link by mail). */
  addressOnly?: AddressOnlyPeople;
  /** A person's authenticator-app (TOTP) devices as a trusted server asks for them (the CDI): no session of authsvc's involved. */
  totpDevices?: TotpDevices;
}
export type AccountKind = keyof AccountOperations;

/** How a start-time refusal or a runtime error names a kind. */
export const ACCOUNT_KIND_NAMES: Readonly<Record<AccountKind, string>> = {
  password: "password accounts",
  providerIdentities: "provider identities",
  addressOnly: "address-only people",
  totpDevices: "TOTP devices",
};

export interface PasswordSignUpInput {
  email: string;
  password: string;
  /** The address counts as verified (the caller proved it: an invitation's mailed token). */
  verified?: boolean;
  /** Who asked, recorded in the event ("cdi", "invitation"). */
  source?: string;
  /** The new person's locale, which their mail is written in. */
  locale?: string;
  /** The first session, opened in the sign-up's transaction (the caller signs its tokens). */
  start?: SessionStart;
  /** The caller's own change in the same transaction, before the session opens; what it throws rolls the sign-up back. */
  within?: (tx: Kysely<DB>, personId: string) => Promise<void>;
}

/** `user` is the person; `recipeUserId` the password login's own user. */
export type PasswordSignUpResult =
  | { status: "OK"; user: UserView; recipeUserId: string; opened?: OpenedSession }
  /** Someone has a password login for this address already. */
  | { status: "ADDRESS_EXISTS" }
  | { status: "FIELD_ERROR"; formFields: FieldError[] }
  | { status: "SIGN_UP_NOT_ALLOWED"; reason: string };

export type PasswordSignInResult =
  | { status: "OK"; user: UserView; recipeUserId: string }
  | { status: "WRONG_CREDENTIALS_ERROR" }
  | { status: "SIGN_IN_NOT_ALLOWED"; reason: string };

export type SetPasswordResult =
  | { status: "OK"; revokedSessions: number }
  | { status: "FIELD_ERROR"; formFields: FieldError[] }
  | { status: "NO_PASSWORD_LOGIN" };

export interface PasswordAccounts {
  /** A new password login (a person of its own, or joined as account linking decides), checked against the password policy. */
  signUp(ctx: CoreContext, input: PasswordSignUpInput): Promise<PasswordSignUpResult>;
  /** Checks an address and password (the failure budget is the caller's). */
  signIn(ctx: CoreContext, input: { email: string; password: string }): Promise<PasswordSignInResult>;
  /** A new password for a login that has one: every way in of the person ends, the notice is mailed. */
  setPassword(ctx: CoreContext, userId: string, password: string, source?: string): Promise<SetPasswordResult>;
  /** The password login of this user id, if it has one, and its address. */
  findLogin(db: Kysely<DB>, userId: string): Promise<{ userId: string; email: string } | undefined>;
  /**
   * What to tell a client whose sign-up met a database outage once its account was written
   * (`committed`), or may have been: never "nothing happened". Any other error comes back unchanged.
   */
  describeInterruptedSignUp(err: unknown, committed: boolean): unknown;
}

export type ProviderIdentityResult =
  | { status: "OK"; user: UserView; recipeUserId: string; createdNewRecipeUser: boolean }
  | { status: "SIGN_IN_UP_NOT_ALLOWED"; reason: string };

export interface ProviderIdentities {
  /** Signs in the user of (thirdPartyId, thirdPartyUserId), or creates them; the stored address follows the provider's. */
  upsert(ctx: CoreContext, p: { thirdPartyId: string; thirdPartyUserId: string; email: string; emailVerified: boolean; session?: LinkingSession }): Promise<ProviderIdentityResult>;
  /** The user of (thirdPartyId, thirdPartyUserId), if any. */
  find(db: Kysely<DB>, thirdPartyId: string, thirdPartyUserId: string): Promise<{ userId: string } | undefined>;
}

export interface AddressOnlyPeople {
  /**
   * In the caller's transaction: the user of an address someone vouches for (an organization's
   * directory), made when new; the address counts as verified; a refusal (account linking) says why.
   */
  provision(tx: Kysely<DB>, ctx: CoreContext, p: { email: string; source: string }): Promise<{ userId: string; created: boolean } | { refused: string }>;
}

/** A code refused: wrong (the failures so far of the allowed maximum) or, after too many, locked out for a while. */
export type TotpCodeRefusal =
  | { status: "INVALID_TOTP_ERROR"; currentNumberOfFailedAttempts: number; maxNumberOfFailedAttempts: number }
  | { status: "LIMIT_REACHED_ERROR"; retryAfterMs: number; currentNumberOfFailedAttempts: number; maxNumberOfFailedAttempts: number };

/**
 * A person's TOTP devices for a caller that checks its own sessions (the CDI: the app's SDK keeps
 * the MFA state in its session): the same devices, secrets, used codes and attempt limits the
 * FDI and hosted pages use, so a device set up here is the person's second factor everywhere.
 * `userId` may be any of the person's logins; devices belong to the person.
 */
export interface TotpDevices {
  /** A new unverified device (an unverified one of that name is replaced); the default name is "TOTP Device <n>". `UNKNOWN_USER`: no such user. */
  create(ctx: CoreContext, userId: string, p: { name?: string; period: number; skew: number }): Promise<{ status: "OK"; deviceName: string; secret: string } | { status: "DEVICE_ALREADY_EXISTS_ERROR" } | { status: "UNKNOWN_USER" }>;
  rename(ctx: CoreContext, userId: string, from: string, to: string): Promise<"OK" | "UNKNOWN_DEVICE_ERROR" | "DEVICE_ALREADY_EXISTS_ERROR">;
  list(ctx: CoreContext, userId: string): Promise<Array<{ name: string; period: number; skew: number; verified: boolean }>>;
  /** True when the device existed; the last verified device gone turns the second factor off for the person. */
  remove(ctx: CoreContext, userId: string, name: string): Promise<boolean>;
  /** The first good code verifies the device and makes TOTP required for the person; an already verified device is not checked again. */
  verifyDevice(ctx: CoreContext, userId: string, name: string, code: string): Promise<{ status: "OK"; wasAlreadyVerified: boolean } | { status: "UNKNOWN_DEVICE_ERROR" } | TotpCodeRefusal>;
  /** A code of any verified device; `UNKNOWN_USER_ID_ERROR` when the person has no device at all. */
  verifyCode(ctx: CoreContext, userId: string, code: string): Promise<{ status: "OK" } | { status: "UNKNOWN_USER_ID_ERROR" } | TotpCodeRefusal>;
}

/** The rooms' offer of that kind; none is a programming error (kernel/offers.ts checks at start what the switched-on rooms need). */
export function accountsOf<K extends AccountKind>(ctx: Pick<CoreContext, "accounts">, kind: K): NonNullable<AccountOperations[K]> {
  const offer = ctx.accounts[kind];
  if (!offer) throw new Error(`no room offers ${ACCOUNT_KIND_NAMES[kind]} (Room.accounts.${kind}): add the sign-in method that does to src/rooms.ts`);
  return offer as NonNullable<AccountOperations[K]>;
}
