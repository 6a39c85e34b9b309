import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { lowerHashingPriority } from "../../src/core/hashing-priority.js";

/** nice value of every thread of this process (field 19 of /proc/…/stat). */
function niceByThread(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync("/proc/self/task")) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    out.set(Number(tid), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]));
  }
  return out;
}

describe.runIf(process.platform === "linux")("password hashing priority", () => {
  it("lowers the threads that hash, and leaves the event loop's thread alone", async () => {
    const lowered = await lowerHashingPriority(7);
    expect(lowered).toBeGreaterThan(0);
    const nice = niceByThread();
    expect(nice.get(process.pid)).toBe(0);
    expect([...nice.values()].filter((n) => n === 7).length).toBe(lowered);
  });
});
