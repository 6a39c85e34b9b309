/**
 * Values held for a short while under a small number (the responses in flight, jobs sent to a
 * thread and awaiting its answer), in slots that are reused. For things that come and go on every
 * request this replaces a Map or a Set: those are rebuilt every few dozen additions and removals,
 * and a replaced table that had reached V8's old generation keeps pointing at what it held until the
 * next full collection. The young-generation collections count those pointers as live, so every
 * rebuild carried the requests of that moment (and all they allocated) into the old generation:
 * under load a fifth of what the authenticated GET allocated was promoted, and garbage collection
 * took 16-20 % of the event loop instead of 2-3 % (docs/performance.md, "Garbage collection").
 * An array that only grows to the most ever held, with slots overwritten in place, has no such copies.
 */
export class Slots<T> {
  private readonly values: (T | undefined)[] = [];
  private readonly free: number[] = [];
  private held = 0;

  /** How many values are held. */
  get size(): number {
    return this.held;
  }

  /** Holds `value`; returns its number (0 or more, reused once taken). */
  add(value: T): number {
    const slot = this.free.pop() ?? this.values.length;
    this.values[slot] = value;
    this.held++;
    return slot;
  }

  /** The value held under `slot`, if any. */
  get(slot: number): T | undefined {
    return this.values[slot];
  }

  /** Removes and returns the value held under `slot`, if any. */
  take(slot: number): T | undefined {
    const value = this.values[slot];
    if (value === undefined) return undefined;
    this.values[slot] = undefined;
    this.free.push(slot);
    this.held--;
    return value;
  }

  /** The numbers and values held now (a copy: taking during the loop is safe). */
  entries(): Array<[number, T]> {
    const out: Array<[number, T]> = [];
    this.values.forEach((v, slot) => { if (v !== undefined) out.push([slot, v]); });
    return out;
  }
}
