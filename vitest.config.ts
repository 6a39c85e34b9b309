import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Vitest replaces CSS with "" unless told otherwise; the pages' stylesheets (the kernel's and the
    // rooms') are imported as text (?raw).
    css: { include: [/src\/.*\.css/, /altcha\/dist\/.*\.css/] },
    include: ["test/**/*.test.ts"],
    // The single executable and the Chromium tests have their own suites and configs
    // (npm run test:binary, test:browser; vitest.binary.config.ts, vitest.browser.config.ts).
    exclude: [...configDefaults.exclude, "test/binary/**", "test/browser/**"],
    // Builds dist/cli.mjs once: some tests run the real CLI (bin/authsvc) as a child process.
    globalSetup: ["test/global-setup.ts"],
    // Checks every answer of an authsvc server a test fetches against the OpenAPI document.
    setupFiles: ["test/setup/openapi-recorder.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Every test file gets its own SQLite file and PostgreSQL schema, so files can run in parallel.
    fileParallelism: true,
    // Most files spend their time waiting on child processes, PostgreSQL and sockets, not on the
    // CPU: one file per core (Vitest's default is one fewer) keeps a 2-core machine busy.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
