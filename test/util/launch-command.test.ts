import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeLaunchCommand } from "../../src/util/launch-command.js";

/** A file named authsvc under `dir` (the shim of a checkout or an app, or the single executable). */
function place(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "authsvc");
  writeFileSync(file, "#!/bin/sh\n");
  chmodSync(file, 0o755);
  return file;
}

describe("describeLaunchCommand: the command the server's messages print", () => {
  const root = mkdtempSync(join(tmpdir(), "authsvc-launch-"));
  const checkout = join(root, "checkout");
  const app = join(root, "app");
  const sea = place(join(root, "usr-local-bin"));
  const bin = place(join(checkout, "bin"));
  const dep = place(join(app, "node_modules", ".bin"));

  it("a checkout's shim, run from the checkout: ./bin/authsvc", () => {
    expect(describeLaunchCommand({ argv: ["node", bin], cwd: checkout, path: "/usr/bin" })).toBe("./bin/authsvc");
  });
  it("an app's dependency (npx or node_modules/.bin): ./node_modules/.bin/authsvc, never npx authsvc", () => {
    expect(describeLaunchCommand({ argv: ["node", dep], cwd: app, path: "/usr/bin" })).toBe("./node_modules/.bin/authsvc");
  });
  it("the single executable on PATH: authsvc", () => {
    expect(describeLaunchCommand({ argv: [sea, sea], cwd: app, path: ["/usr/bin", join(root, "usr-local-bin")].join(delimiter) })).toBe("authsvc");
  });
  it("another authsvc earlier on PATH, or a folder elsewhere: the absolute path", () => {
    expect(describeLaunchCommand({ argv: [sea, sea], cwd: app, path: [join(checkout, "bin"), join(root, "usr-local-bin")].join(delimiter) })).toBe(sea);
    expect(describeLaunchCommand({ argv: ["node", bin], cwd: app, path: "/usr/bin" })).toBe(bin);
  });
  it("launched any other way (a test runner, the in-process CLI): authsvc", () => {
    expect(describeLaunchCommand({ argv: ["node", "/x/node_modules/vitest/vitest.mjs"], cwd: root, path: "" })).toBe("authsvc");
    expect(describeLaunchCommand({ argv: ["node", "authsvc"], cwd: root, path: "" })).toBe("authsvc");
  });
});
