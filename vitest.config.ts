import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Every test file gets its own SQLite file and PostgreSQL schema, so files can run in parallel.
    fileParallelism: true,
  },
});
