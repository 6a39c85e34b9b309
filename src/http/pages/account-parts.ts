import type { Config } from "../../config/types.js";
import type { Words } from "../../words/words.js";

/**
 * Where a room's link goes in the account page's list of other pages, top to bottom:
 * "memberships" (what the person belongs to: their organizations), "second-step" (what is asked
 * after the first way in: an authenticator app), "ways-in" (more ways to sign in: passkeys),
 * "apps" (apps acting for the person). Links of one place keep the rooms' order; the kernel's
 * "Sign out" ends the list.
 */
export const accountLinkPlaces = ["memberships", "second-step", "ways-in", "apps"] as const;
export type AccountLinkPlace = (typeof accountLinkPlaces)[number];

/**
 * A link on the account page to a room's own page. `count`: an API GET (under the API base path,
 * with the session) whose answer's array `field` is counted beside the link, e.g. "(2)".
 */
export interface AccountLink {
  place: AccountLinkPlace;
  path: string;
  label: string;
  count?: { path: string; field: string };
}

/**
 * The places of "My account" a room can fill with markup, top to bottom: `after-logins` sections
 * after "How you sign in" (changing a password), `email-proof` fields in the address change form,
 * after the new address, that prove it is the person (the password).
 */
export type AccountSlot = "after-logins" | "email-proof";

/**
 * A room's part of the hosted account page (Room.accountPage): its links to its own pages, its
 * markup in the page's slots (rooms in their order within a slot) and its module, one of its
 * assets. The page's script (account-page.js, served as account.js) imports every room's module
 * and calls its `mountAccount({ onSubmit, sessionsChanged })` once: `onSubmit(formId, errorId,
 * send, done)` is the page's submit (required fields, busy state, the error line),
 * `sessionsChanged()` reads the list of sessions again. A module may also export
 * `emailChangeProof()`: the fields it adds to POST /account/email (`{ password }`). A module does
 * nothing when imported: only these functions act. A room's forms post (method="post"), so a
 * submit before the module attaches never puts what was typed in the address.
 */
export interface AccountPagePart {
  /** Its links, labelled in the page's words `w`. */
  links?(config: Readonly<Config>, w: Words): readonly AccountLink[];
  markup?: Partial<Record<AccountSlot, (config: Readonly<Config>, w: Words) => string>>;
  script?: string;
}

/** The rooms' links of one place, in their order. */
export function accountLinksAt(parts: readonly AccountPagePart[], place: AccountLinkPlace, config: Readonly<Config>, w: Words): AccountLink[] {
  return parts.flatMap((p) => p.links?.(config, w) ?? []).filter((l) => l.place === place);
}

/** The markup the rooms put in one slot, in their order, joined by `separator` (the line break and indent where the slot sits). */
export function accountSlot(parts: readonly AccountPagePart[], slot: AccountSlot, config: Readonly<Config>, separator: string, w: Words): string {
  return parts.flatMap((p) => p.markup?.[slot]?.(config, w) ?? []).join(separator);
}

/** The rooms' account modules, for the page's data-account-parts. */
export const accountScripts = (parts: readonly AccountPagePart[]): string => parts.flatMap((p) => p.script ?? []).join(",");
