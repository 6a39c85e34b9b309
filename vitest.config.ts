import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The single executable has its own suite and config (npm run test:binary, vitest.binary.config.ts).
    exclude: [...configDefaults.exclude, "test/binary/**"],
    // Builds dist/cli.mjs once: some tests run the real CLI (bin/authsvc) as a child process.
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Every test file gets its own SQLite file and PostgreSQL schema, so files can run in parallel.
    fileParallelism: true,
  },
});
