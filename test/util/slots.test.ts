import { describe, expect, it } from "vitest";
import { Slots } from "../../src/util/slots.js";

describe("slots (what is in flight, without a Map that is rebuilt on every few requests)", () => {
  it("gives each value its own number, hands each back once, and reuses a freed number instead of growing", () => {
    const s = new Slots<string>();
    const a = s.add("a");
    const b = s.add("b");
    expect(a).not.toBe(b);
    expect(s.get(a)).toBe("a");
    expect(s.size).toBe(2);
    expect(s.take(a)).toBe("a");
    expect(s.take(a)).toBeUndefined(); // an answer that comes twice finds nothing the second time
    expect(s.get(a)).toBeUndefined();
    expect(s.size).toBe(1);
    const c = s.add("c");
    expect(c).toBe(a); // the freed number, so the array holds at most the most ever in flight
    expect(s.get(c)).toBe("c");
  });

  it("holds at most as many slots as were ever in flight at once, however many come and go", () => {
    const s = new Slots<object>();
    const numbers = new Set<number>();
    for (let round = 0; round < 1000; round++) {
      const held = [s.add({}), s.add({}), s.add({})];
      held.forEach((n) => numbers.add(n));
      held.forEach((n) => s.take(n));
    }
    expect([...numbers].sort()).toEqual([0, 1, 2]);
    expect(s.size).toBe(0);
  });

  it("lists what it holds as a copy, so taking while going through the list is safe", () => {
    const s = new Slots<string>();
    const numbers = ["x", "y", "z"].map((v) => s.add(v));
    s.take(numbers[1]);
    const listed = s.entries();
    expect(listed).toEqual([[numbers[0], "x"], [numbers[2], "z"]]);
    for (const [n] of listed) s.take(n);
    expect(s.size).toBe(0);
    expect(s.entries()).toEqual([]);
  });
});
