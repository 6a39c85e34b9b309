import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import { ConfigError } from "../../src/config/types.js";
import { assembleOffers } from "../../src/kernel/offers.js";
import type { Room } from "../../src/kernel/room.js";
import { rooms } from "../../src/rooms.js";

/**
 * What the rooms offer each other through the context (Room.accounts, Room.memberships) is
 * assembled once at start: every kind from one room, and a room that needs a kind nobody offers
 * stops the start with a message naming both (what an operator reads when a build leaves a room out).
 */
const off = resolveConfig({ env: {} }).config;
const cdiOn = resolveConfig({ env: { AUTHSVC_CDI_API_KEY: randomBytes(32).toString("base64url") } }).config;
const without = (...ids: string[]) => rooms.filter((r) => !ids.includes(r.id));
const startRefusal = (list: readonly Room[], config = off) => {
  try { assembleOffers(list, config); } catch (err) { return err instanceof ConfigError ? err.message : `not a ConfigError: ${String(err)}`; }
  return undefined;
};

describe("the rooms' offers", () => {
  it("the shipped rooms offer every kind once, from the room that keeps it", () => {
    const o = assembleOffers(rooms, cdiOn);
    const owner = (pick: (r: Room) => unknown) => rooms.filter((r) => pick(r) !== undefined).map((r) => r.id);
    expect(owner((r) => r.accounts?.password)).toEqual(["emailpassword"]);
    expect(owner((r) => r.accounts?.providerIdentities)).toEqual(["thirdparty"]);
    expect(owner((r) => r.accounts?.addressOnly)).toEqual(["passwordless"]);
    expect(owner((r) => r.accounts?.totpDevices)).toEqual(["totp"]);
    expect(owner((r) => r.memberships)).toEqual(["organizations"]);
    expect(o.accounts.password).toBe(rooms.find((r) => r.id === "emailpassword")!.accounts!.password);
    expect(o.memberships).toBe(rooms.find((r) => r.id === "organizations")!.memberships);
  });

  it("refuses to start SSO without organizations, naming what is missing", () => {
    expect(startRefusal(without("organizations"))).toMatch(/^sso needs memberships .* which no room offers/);
  });

  it("refuses to start SSO without the room of address-only people", () => {
    expect(startRefusal(without("passwordless"))).toMatch(/^sso needs address-only people, which no room offers/);
  });

  it("asks for the CDI's needs only once its API key switches it on", () => {
    const list = without("thirdparty", "sso");
    expect(startRefusal(list, off)).toBeUndefined();
    expect(startRefusal(list, cdiOn)).toMatch(/^cdi needs provider identities, which no room offers: .*switch cdi off/);
    expect(startRefusal(without("totp"), cdiOn)).toMatch(/^cdi needs TOTP devices, which no room offers/);
  });

  it("refuses two rooms offering one kind, naming both", () => {
    const copy: Room = { id: "second-passwords", accounts: { password: rooms.find((r) => r.id === "emailpassword")!.accounts!.password } };
    expect(() => assembleOffers([...rooms, copy], off)).toThrow("rooms emailpassword and second-passwords both offer password accounts");
  });
});
