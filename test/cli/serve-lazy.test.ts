import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { spawnBin } from "../helpers/bin.js";

// Small machines (issue 51): a start loads what every request needs, and the rooms' heavier parts
// when a request first needs them (kernel/lazy.ts; esbuild puts them in chunks of their own,
// scripts/build.mjs). The server here is the built CLI (`npx authsvc serve --workers 1`), and the
// evidence is the module files the process read, recorded by a loader hook (helpers/module-recorder.mjs).
// esbuild's output names each bundled file in a comment ("// node_modules/@node-saml/node-saml/lib/saml.js"),
// so the text of the chunks read says what they hold.

const recorder = fileURLToPath(new URL("../helpers/module-recorder.mjs", import.meta.url));

/** What a start must not load, each with the text that says a chunk holds it (or, outside the bundle, the package's path). */
const LAZY: Readonly<Record<string, string>> = {
  "SAML (@node-saml/node-saml)": "node_modules/@node-saml/node-saml/",
  "SAML's XML signatures (xml-crypto)": "node_modules/xml-crypto/",
  "SAML's routes' handlers": "src/sso/saml-handlers.ts",
  "SCIM": "src/sso/scim-http.ts",
  "the CDI's handlers": "src/cdi/handlers.ts",
  "the dashboard": "src/dashboard/mount.ts",
  "the commands other than serve (importers, backups, the bench)": "src/cli/program.ts",
  "the importers' CSV parser": "node_modules/csv-parse/",
  "the OAuth provider (oidc-provider)": "node_modules/oidc-provider/",
};

/** The lazy parts the process has loaded so far, by their names in LAZY. */
function loadedLazyParts(recorded: string): string[] {
  const files = [...new Set(readFileSync(recorded, "utf8").split("\n").filter(Boolean))].map((url) => fileURLToPath(url));
  const texts = files.map((file) => (file.includes("/dist/") ? readFileSync(file, "utf8") : file));
  return Object.entries(LAZY).filter(([, marker]) => texts.some((t) => t.includes(marker))).map(([name]) => name);
}

describe.each(backends)("what `serve` loads at start and on first use, on $name", { timeout: 120_000 }, (backend) => {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    while (cleanup.length) await cleanup.pop()!();
  });

  it("starts without SAML, SCIM, the CDI, the dashboard, the importers or the OAuth provider, and loads each on its first request", async () => {
    const db = await backend.create();
    cleanup.push(db.drop);
    const dir = mkdtempSync(join(tmpdir(), "authsvc-lazy-"));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const recorded = join(dir, "modules.txt");
    const child = spawnBin(["serve", "--workers", "1", "--port", "0", "--host", "127.0.0.1", "--mail-catcher-port", "0", "--database", db.url], {
      env: { NODE_OPTIONS: `--import ${recorder}`, AUTHSVC_TEST_MODULES: recorded },
    });
    cleanup.push(async () => { if (child.exitCode === null) { child.kill("SIGTERM"); await child.result; } });
    let seen = "";
    const port = await new Promise<number>((resolve, reject) => {
      child.stderr!.on("data", (d) => { seen += d; const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(seen); if (m) resolve(Number(m[1])); });
      child.on("close", (code) => reject(new Error(`serve exited (${code}) before listening:\n${seen}`)));
    });
    const url = `http://127.0.0.1:${port}`;
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    // A request every server answers (a sign-up) loads none of them either.
    const signup = await fetch(`${url}/auth/signup`, { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ formFields: [{ id: "email", value: "lazy@example.com" }, { id: "password", value: "a long enough passphrase" }] }) });
    expect(signup.status).toBe(200);
    expect(loadedLazyParts(recorded)).toEqual([]);

    // The first SAML request loads SAML, and answers as before: no such connection.
    const saml = await fetch(`${url}/auth/saml/no-such-connection/metadata`);
    expect(saml.status).toBe(404);
    expect(await saml.json()).toMatchObject({ message: "No such SAML connection" });
    expect(loadedLazyParts(recorded)).toEqual(["SAML (@node-saml/node-saml)", "SAML's XML signatures (xml-crypto)", "SAML's routes' handlers"]);

    // SCIM without its bearer token: refused, once SCIM is loaded.
    const scim = await fetch(`${url}/scim/v2/Users`);
    expect(scim.status).toBe(401);
    expect(loadedLazyParts(recorded)).toContain("SCIM");

    // The dashboard's sign-in page.
    const dashboard = await fetch(`${url}/admin/sign-in`);
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain("<form");
    expect(loadedLazyParts(recorded)).toContain("the dashboard");
    expect(loadedLazyParts(recorded)).not.toContain("the CDI's handlers");

    child.kill("SIGTERM");
    expect((await child.result).code).toBe(0);
  });
});
