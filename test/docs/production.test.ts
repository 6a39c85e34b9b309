import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import { ROOT } from "../helpers/doc-files.js";
import { readBlocks } from "../helpers/readme-blocks.js";

/**
 * The reverse-proxy examples of docs/production.md: the lines that make authsvc see the real client
 * and host, checked in the text; and, where the tools are installed (.ci/run installs Debian's caddy
 * and nginx), the files as the tools themselves read them.
 */
const PAGE = join(ROOT, "docs/production.md");
const blocks = readBlocks(PAGE);
const only = (lang: string) => {
  const found = blocks.filter((b) => b.lang === lang);
  expect(found, `docs/production.md should have one ${lang} block`).toHaveLength(1);
  return found[0].code;
};
const has = (tool: string) => spawnSync("sh", ["-c", `command -v ${tool}`]).status === 0;
const dir = mkdtempSync(join(tmpdir(), "authsvc-proxy-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("Caddy example", () => {
  it("proxies the public name to authsvc on loopback port 3567", () => {
    const caddy = only("caddyfile");
    expect(caddy).toMatch(/^auth\.example\.com \{$/m);
    expect(caddy).toMatch(/^\s+reverse_proxy 127\.0\.0\.1:3567$/m);
  });

  it.runIf(has("caddy"))("is a valid Caddyfile (caddy validate)", () => {
    const file = join(dir, "Caddyfile");
    writeFileSync(file, only("caddyfile"));
    const r = spawnSync("caddy", ["validate", "--config", file, "--adapter", "caddyfile"], { encoding: "utf8", env: { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir } });
    expect(r.status, r.stderr).toBe(0);
  });
});

describe("nginx example", () => {
  it("passes Host and appends the client to X-Forwarded-For, over TLS, with http redirected", () => {
    const nginx = only("nginx");
    expect(nginx).toContain("proxy_pass http://127.0.0.1:3567;");
    expect(nginx).toContain("proxy_set_header Host $host;");
    expect(nginx).toContain("proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;");
    expect(nginx).toMatch(/listen 443 ssl/);
    expect(nginx).toContain("return 301 https://$host$request_uri;");
  });

  it.runIf(has("nginx") && has("openssl"))("is a valid server configuration (nginx -t)", () => {
    // The certificate paths certbot would write, replaced by a throwaway self-signed pair.
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=auth.example.com",
      "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")], { stdio: "ignore" });
    const server = only("nginx")
      .replace("/etc/letsencrypt/live/auth.example.com/fullchain.pem", join(dir, "cert.pem"))
      .replace("/etc/letsencrypt/live/auth.example.com/privkey.pem", join(dir, "key.pem"));
    const conf = join(dir, "nginx.conf");
    writeFileSync(conf, `pid ${join(dir, "nginx.pid")};\nerror_log stderr;\nevents {}\nhttp {\n${server}\n}\n`);
    const r = spawnSync("nginx", ["-t", "-q", "-p", dir, "-c", conf, "-e", "stderr"], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
  });
});

describe("trusted proxies", () => {
  it("the page's setting is valid and trusts the address both proxies connect from", () => {
    const line = blocks.filter((b) => b.lang === "sh").map((b) => /AUTHSVC_TRUSTED_PROXIES=(\S+)/.exec(b.code)?.[1]).find(Boolean);
    expect(line, "docs/production.md should show AUTHSVC_TRUSTED_PROXIES").toBeDefined();
    const { config } = resolveConfig({ env: { AUTHSVC_TRUSTED_PROXIES: line } });
    expect(config.trustedProxies).toContain("127.0.0.1/32");
  });
});

describe("the environment files", () => {
  // systemd reads EnvironmentFile= with shell-like quoting; people also `set -a; . authsvc.env` to run
  // a CLI command with the service's settings. Each block must mean the same to both.
  const envFiles = blocks.filter((b) => b.lang === "ini" && /^# \/etc\/authsvc\/authsvc\.env/.test(b.code));

  it.each(envFiles.map((b) => [b.line, b]))("the block at line %i can be sourced by a shell, giving each value as written", (_, block) => {
    const file = join(dir, `authsvc-${block.line}.env`);
    writeFileSync(file, block.code);
    const r = spawnSync("sh", ["-c", `set -a; . "${file}"; env`], { encoding: "utf8", env: {} });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    const sourced = Object.fromEntries(r.stdout.split("\n").filter((l) => l.startsWith("AUTHSVC_")).map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));
    const written = Object.fromEntries(block.code.split("\n").filter((l) => l.startsWith("AUTHSVC_")).map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1).replace(/^"(.*)"$/, "$1")]));
    expect(sourced).toEqual(written);
  });

  it("the full file starts production mode as it stands", () => {
    const full = envFiles.find((b) => /^# \/etc\/authsvc\/authsvc\.env$/m.test(b.code));
    expect(full, "docs/production.md should show the whole env file").toBeDefined();
    const env = Object.fromEntries(full!.code.split("\n").filter((l) => l.startsWith("AUTHSVC_")).map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1).replace(/^"(.*)"$/, "$1")]));
    expect(resolveConfig({ flags: { production: true }, env }).config.mailFrom).toBe("Example <no-reply@example.com>");
  });
});
