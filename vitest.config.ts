import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Builds dist/cli.mjs once: some tests run the real CLI (bin/authsvc) as a child process.
    globalSetup: ["test/global-setup.ts"],
    // Checks every answer of an authsvc server a test fetches against the OpenAPI document.
    setupFiles: ["test/setup/openapi-recorder.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Every test file gets its own SQLite file and PostgreSQL schema, so files can run in parallel.
    fileParallelism: true,
  },
});
