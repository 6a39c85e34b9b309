import { defineConfig } from "vitest/config";

// `npm run test:binary`: builds the single executable (scripts/build-binary.mjs) and drives it as a
// user would. Its own suite: the build takes a while and needs a Node.js that can make one.
export default defineConfig({
  test: {
    include: ["test/binary/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
