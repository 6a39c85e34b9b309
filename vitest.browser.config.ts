import { defineConfig } from "vitest/config";

/**
 * The browser tests (test/browser): real Chromium through puppeteer-core against a real server.
 * Their own command (`npm run test:browser`, run by .ci/run after `npm test`), so `npm test` needs
 * no browser. One file at a time: each starts a browser, and the machine is small.
 */
export default defineConfig({
  test: {
    // Vitest replaces CSS with "" unless told otherwise; the pages' stylesheets (the kernel's and the
    // rooms') are imported as text (?raw).
    css: { include: [/src\/.*\.css/, /altcha\/dist\/.*\.css/] },
    include: ["test/browser/**/*.test.ts"],
    // Builds dist/cli.mjs: the quick-start test runs the real `authsvc serve` as a child process.
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
