// A signed-in dashboard admin for benches: created in the server's database through the same core
// function as `authsvc admins create` (create-admin.ts, bundled with esbuild next to dist/), then
// signed in over HTTP with the sign-in form (password + the current TOTP code). Returns the Cookie header.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { build } from "esbuild";
import { Secret, TOTP } from "otpauth";
import { rawText, root } from "../build-info.mjs";

let bundled;

export async function signInAdmin(url, database) {
  bundled ??= build({ absWorkingDir: root, entryPoints: ["scripts/bench-lib/create-admin.ts"], outfile: "dist/bench-create-admin.mjs", bundle: true, platform: "node", format: "esm", target: "node20.19", packages: "external", logLevel: "warning", plugins: [rawText],
    banner: { js: 'import { createRequire as __authsvcCreateRequire } from "node:module"; const require = __authsvcCreateRequire(import.meta.url);' } });
  await bundled;
  const admin = JSON.parse(execFileSync(process.execPath, [join(root, "dist/bench-create-admin.mjs"), database], { encoding: "utf8" }));
  const code = new TOTP({ secret: Secret.fromBase32(admin.secret), digits: 6, period: 30 }).generate();
  const res = await fetch(`${url}/admin/sign-in`, {
    method: "POST", redirect: "manual",
    headers: { origin: url, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: admin.email, password: admin.password, code, next: "/admin" }).toString(),
  });
  const cookie = res.headers.getSetCookie().map((c) => c.split(";")[0]).find((c) => c.startsWith("authsvc_admin="));
  if (res.status !== 303 || !cookie) throw new Error(`bench admin sign-in failed: ${res.status} ${await res.text()}`);
  return cookie;
}
