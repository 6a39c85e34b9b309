import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without type declarations
import { CLI_REFERENCE, renderCliReference } from "../../scripts/cli-doc.mjs";
// @ts-expect-error: a plain .mjs script without type declarations
import { API_REFERENCE, renderApiReference } from "../../scripts/api-doc.mjs";

// The reference pages are generated from the code (the commander program, the OpenAPI document), so
// they cannot drift: a change to a command, an option or a route fails here until `npm run docs` is run.

it("docs/cli-reference.md is what `npm run docs` generates from the commander program", async () => {
  expect(readFileSync(CLI_REFERENCE, "utf8")).toBe(await renderCliReference());
}, 30_000);

it("docs/api-reference.md is what `npm run docs` generates from the OpenAPI document", async () => {
  expect(readFileSync(API_REFERENCE, "utf8")).toBe(await renderApiReference());
}, 30_000);

it("the CLI reference lists every command users run, with their options", async () => {
  const page: string = await renderCliReference();
  for (const c of ["serve", "migrate", "create-user", "reset-password", "users list", "users import <files>", "keys rotate", "limits clear", "tail-mail", "backup <file>"]) {
    expect(page).toContain(`## authsvc ${c}`);
  }
  expect(page).toContain("`--password-stdin`");
}, 30_000);

it("the CLI guide (docs/cli.md) mentions every command the program has", async () => {
  const guide = readFileSync(CLI_REFERENCE.replace("cli-reference.md", "cli.md"), "utf8");
  const commands = [...(await renderCliReference() as string).matchAll(/^## authsvc ([a-z-]+(?: [a-z-]+)?)/gm)].map((m) => m[1]);
  expect(commands.length).toBeGreaterThan(15);
  expect(commands.filter((c) => !guide.includes(`\`${c}`))).toEqual([]);
}, 30_000);
