#!/usr/bin/env node
// node scripts/upgrade-fixture.mjs <commit>
//
// Writes test/fixtures/upgrade/<commit>.json: a database made and filled by the authsvc of that
// commit, with its own code (migrations, stores, HTTP handlers), for test/ops/upgrade.test.ts to
// upgrade. The commit's files are unpacked into a temporary folder (git archive: no worktree is
// registered) beside this checkout's node_modules; the filling helpers
// (test/helpers/populate.ts, upgrade-fixture-write.ts) are the commit's own when it has them, else
// their first versions (written against 74faee7, the first release with a fixture: later ones fill
// later rooms' tables, with code that commit does not have). Run it for the release before a
// change that adds migrations, and commit the JSON (never a database file).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "./build-info.mjs";

const ref = process.argv[2];
if (!ref) {
  console.error("usage: node scripts/upgrade-fixture.mjs <commit>");
  process.exit(2);
}
const commit = execFileSync("git", ["rev-parse", "--short", `${ref}^{commit}`], { cwd: root, encoding: "utf8" }).trim();
const out = join(root, "test/fixtures/upgrade", `${commit}.json`);
const tree = mkdtempSync(join(tmpdir(), `authsvc-${commit}-`));
try {
  execFileSync("bash", ["-c", `git archive ${commit} | tar -x -C "${tree}"`], { cwd: root, stdio: "inherit" });
  symlinkSync(join(root, "node_modules"), join(tree, "node_modules"));
  for (const helper of ["test/helpers/populate.ts", "test/helpers/upgrade-fixture-write.ts"]) {
    if (existsSync(join(tree, helper))) continue;
    const first = execFileSync("git", ["log", "--diff-filter=A", "--format=%H", "--", helper], { cwd: root, encoding: "utf8" }).trim().split("\n").pop();
    writeFileSync(join(tree, helper), execFileSync("git", ["show", `${first}:${helper}`], { cwd: root }));
  }
  writeFileSync(join(tree, "test/upgrade-fixture.run.test.ts"), [
    'import { it } from "vitest";',
    'import { writeUpgradeFixture } from "./helpers/upgrade-fixture-write.js";',
    'it("writes the upgrade fixture", () => writeUpgradeFixture(process.env.FIXTURE_OUT!, process.env.FIXTURE_COMMIT!), 120_000);',
    "",
  ].join("\n"));
  mkdirSync(join(root, "test/fixtures/upgrade"), { recursive: true });
  execFileSync(process.execPath, [join(tree, "node_modules/vitest/vitest.mjs"), "run", "test/upgrade-fixture.run.test.ts"], {
    cwd: tree, stdio: "inherit", env: { ...process.env, FIXTURE_OUT: out, FIXTURE_COMMIT: commit, AUTHSVC_TEST_PG_URL: "" },
  });
  console.log(`wrote ${out}`);
} finally {
  rmSync(tree, { recursive: true, force: true });
}
