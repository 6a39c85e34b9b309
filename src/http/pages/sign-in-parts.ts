import type { Config } from "../../config/types.js";
import type { LinkRefusalCodes } from "../../core/linking.js";
import type { Words } from "../../words/words.js";

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
  markup?: Partial<Record<SignInSlot, (config: Readonly<Config>, w: Words) => string>>;
  script?: string;
  /**
   * A form that signs in without leaving another page (the verify page's "Sign in to finish"); its
   * module's `mountInPlace({ errorId, done })` submits it, says a failure in `errorId`, and calls
   * `done()` once signed in.
   */
  inPlace?(config: Readonly<Config>, w: Words): string;
  /**
   * Its account-linking refusals, which refusal-words.js (every hosted page's api.js reads it) tells
   * apart: its codes of the kernel's shared kinds, and its own kinds with their sentences.
   */
  refusals?: readonly RefusalKind[];
}

/**
 * The kinds of account-linking refusal every method can give, whose sentences the kernel keeps
 * (refusal-words.js): a new login method for an address that has an account (`taken`), and the three
 * ways adding a method to the signed-in account fails (`verifyFirst`, `methodTaken`, `addressTaken`).
 */
export const sharedRefusalKinds = ["taken", "verifyFirst", "methodTaken", "addressTaken"] as const;

/**
 * A kind of account-linking refusal the hosted pages tell apart, as a room gives it: the ERR_CODE
 * numbers that end the API's reason for it, and the id of the sentence the pages say instead (a
 * `js.` word of the room's catalogue, so every page carries it in its locale; text that is no id
 * is shown as it is); or, without one, its codes of one of the shared kinds. Modules'
 * `refusalActions` get the `kind`.
 */
export type RefusalKind =
  | { kind: string; codes: readonly string[]; words: string }
  | { kind: (typeof sharedRefusalKinds)[number]; codes: readonly string[]; words?: undefined };

/**
 * A room's codes of the three shared link refusals, from the code triples its reasons are built
 * from (core/linking.ts: describeLinkRefusals): each position of a triple is one kind, in the
 * triple's order, and each kind lists the triples' codes in the order given.
 */
export function linkRefusalKinds(...triples: readonly LinkRefusalCodes[]): RefusalKind[] {
  const kinds = ["verifyFirst", "methodTaken", "addressTaken"] as const;
  return kinds.map((kind, i) => ({ kind, codes: triples.map((t) => t[i]) }));
}

/** The markup the rooms put in one slot, in their order. */
export function signInSlot(parts: readonly SignInPart[], slot: SignInSlot, config: Readonly<Config>, w: Words): string {
  return parts.flatMap((p) => p.markup?.[slot]?.(config, w) ?? []).join("\n  ");
}

/** The rooms' sign-in modules, for the pages' data-sign-in-parts. */
export const signInScripts = (parts: readonly SignInPart[]): string => parts.flatMap((p) => p.script ?? []).join(",");
