import type { Config } from "../../config/types.js";

/**
 * The places of the hosted sign-in page (GET {websiteBasePath}) a room can fill, top to bottom:
 * `top` above the live regions (buttons that sign in at once: providers, passkeys), `form` the
 * address form, `choices` just below it (another way with the address typed above), `links` the
 * asides at the end ("Forgot your password?").
 */
export type SignInSlot = "top" | "form" | "choices" | "links";

/**
 * A room's part of the hosted sign-in page (Room.signIn): its markup in the page's slots (rooms in
 * their order within a slot) and its module, one of its assets. The page's script (sign-in.js)
 * imports every room's module and calls its `mountSignIn({ target, signingUp })`, which may return
 * `show(signUp)` (called on every switch between sign-in and sign-up) and `start()` (called once
 * the form shows, when no live session was resumed). A module may also export
 * `refusalActions(kind, { email, target })`: what it offers beside an account-linking refusal
 * (refusal.js), so every hosted page that shows refusals is told the modules (data-sign-in-parts).
 * A module does nothing when imported: only these functions act.
 */
export interface SignInPart {
  markup?: Partial<Record<SignInSlot, (config: Readonly<Config>) => string>>;
  script?: string;
  /**
   * A form that signs in without leaving another page (the verify page's "Sign in to finish"); its
   * module's `mountInPlace({ errorId, done })` submits it, says a failure in `errorId`, and calls
   * `done()` once signed in.
   */
  inPlace?(config: Readonly<Config>): string;
  /** Its kinds of account-linking refusal, beside the kernel's in refusal-words.js (which every hosted page's api.js reads). */
  refusals?: readonly RefusalKind[];
}

/**
 * A kind of account-linking refusal the hosted pages tell apart: the ERR_CODE numbers that end
 * the API's reason for it, and the sentence the pages say instead. Modules' `refusalActions` get
 * its `kind`.
 */
export interface RefusalKind { kind: string; codes: readonly string[]; words: string }

/** The markup the rooms put in one slot, in their order. */
export function signInSlot(parts: readonly SignInPart[], slot: SignInSlot, config: Readonly<Config>): string {
  return parts.flatMap((p) => p.markup?.[slot]?.(config) ?? []).join("\n  ");
}

/** The rooms' sign-in modules, for the pages' data-sign-in-parts. */
export const signInScripts = (parts: readonly SignInPart[]): string => parts.flatMap((p) => p.script ?? []).join(",");
