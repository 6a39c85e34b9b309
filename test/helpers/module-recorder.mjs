// Preloaded into a child `authsvc` (NODE_OPTIONS=--import <this file>, AUTHSVC_TEST_MODULES=<file>):
// appends the URL of every module file the process loads to that file, one a line, so a test can
// say which parts of the bundle a process read (test/cli/serve-lazy.test.ts).
import { register } from "node:module";

register(new URL("./module-recorder-hooks.mjs", import.meta.url), { data: { out: process.env.AUTHSVC_TEST_MODULES } });
