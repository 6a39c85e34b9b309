import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";

/**
 * Fresh temporary folders for a test file, removed after each test (with anything else registered
 * through `cleanup`, run in reverse order).
 */
export function useTempDirs(prefix: string): { tempDir(): string; cleanup: Array<() => Promise<void> | void> } {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterEach(async () => { while (cleanup.length) await cleanup.pop()!(); });
  return {
    cleanup,
    tempDir: () => {
      const dir = mkdtempSync(join(tmpdir(), `authsvc-${prefix}-`));
      cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
      return dir;
    },
  };
}
