import { describe, expect, it } from "vitest";
import { assembleHttpTables } from "../../src/kernel/http-tables.js";
import type { Room } from "../../src/kernel/room.js";
import { PERSON_FACTS, type PersonPanel } from "../../src/http/person-panels.js";

/** What the start refuses when rooms' person-page declarations collide (a programming error, caught before serving). */
describe("assembling the rooms' person page parts", () => {
  const panel = (id: string): PersonPanel => ({ id, title: id, place: "after-locks", load: async () => null, render: () => "" });
  const room = (id: string, panels: PersonPanel[]): Room => ({ id, personPage: { panels } });

  it("keeps the rooms' panels in their order", () => {
    const t = assembleHttpTables([room("a", [panel("one")]), room("b", [panel("two")])]);
    expect(t.personPage.panels.map((p) => p.id)).toEqual(["one", "two"]);
  });

  it("refuses a panel id two rooms declare, and one that takes the top facts' name", () => {
    expect(() => assembleHttpTables([room("a", [panel("one")]), room("b", [panel("one")])])).toThrow(/person page panel one is declared twice/);
    expect(() => assembleHttpTables([room("a", [panel(PERSON_FACTS)])])).toThrow(/person page panel person takes a reserved name/);
  });
});
