/**
 * Work that must wait for a commit (kicking a queue worker that should see the new rows). Code deep
 * inside a transaction (an event's hook) cannot know when its caller commits; writeTx does.
 */
const open = new WeakMap<object, Array<() => void>>();

/**
 * Runs `fn` once the transaction `tx` has committed, never when it rolls back. Outside a writeTx
 * (a statement that commits on its own) it runs on the next turn of the event loop.
 */
export function afterCommit(tx: object, fn: () => void): void {
  const list = open.get(tx);
  if (list) list.push(fn);
  else setImmediate(fn);
}

/** Runs a transaction (`execute` begins and commits it), then whatever its body asked to run after the commit. */
export async function withAfterCommit<X extends object, T>(execute: (body: (tx: X) => Promise<T>) => Promise<T>, body: (tx: X) => Promise<T>): Promise<T> {
  let tx: X | undefined;
  try {
    const r = await execute((t) => { tx = t; open.set(t, []); return body(t); });
    for (const fn of (tx && open.get(tx)) ?? []) {
      try { fn(); } catch { /* a kick that throws must not fail a committed change */ }
    }
    return r;
  } finally {
    if (tx) open.delete(tx);
  }
}
