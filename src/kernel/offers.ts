import type { Config } from "../config/types.js";
import { ConfigError } from "../config/types.js";
import { ACCOUNT_KIND_NAMES, type AccountKind, type AccountOperations } from "../core/account-operations.js";
import type { Memberships } from "../core/memberships.js";
import type { Room } from "./room.js";

/** What a room may offer other rooms through the context: a kind of account operations, or memberships. */
export type OfferKind = AccountKind | "memberships";

const OFFER_NAMES: Readonly<Record<OfferKind, string>> = { ...ACCOUNT_KIND_NAMES, memberships: "memberships (organizations and their members)" };

/**
 * The rooms' offers (Room.accounts, Room.memberships), assembled once for the context: two rooms
 * offering one kind is a programming error (which one would a consumer reach?), and a room that
 * needs a kind no room offers (Room.needs, with this configuration) stops the start, naming both.
 */
export function assembleOffers(rooms: readonly Room[], config: Readonly<Config>): { accounts: AccountOperations; memberships?: Memberships } {
  const accounts: AccountOperations = {};
  const by = new Map<OfferKind, string>();
  const offer = (room: Room, kind: OfferKind) => {
    const other = by.get(kind);
    if (other !== undefined) throw new Error(`rooms ${other} and ${room.id} both offer ${OFFER_NAMES[kind]}: one room offers each kind`);
    by.set(kind, room.id);
  };
  let memberships: Memberships | undefined;
  for (const room of rooms) {
    for (const kind of Object.keys(room.accounts ?? {}) as AccountKind[]) {
      if (room.accounts![kind] === undefined) continue;
      offer(room, kind);
      (accounts as Record<AccountKind, unknown>)[kind] = room.accounts![kind];
    }
    if (room.memberships) {
      offer(room, "memberships");
      memberships = room.memberships;
    }
  }
  for (const room of rooms) {
    const missing = (room.needs?.(config) ?? []).filter((kind) => !by.has(kind));
    if (missing.length) throw new ConfigError(`${room.id} needs ${missing.map((k) => OFFER_NAMES[k]).join(" and ")}, which no room offers: add the room that does to src/rooms.ts, or switch ${room.id} off`);
  }
  return { accounts, memberships };
}
