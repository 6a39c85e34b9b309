import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, describeConfig, resolveConfig, testConfig } from "../../src/config.js";

function configFile(content: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), "authsvc-config-")), "authsvc.json");
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
}

/** The message of the ConfigError `fn` throws (fails the test when it does not throw one). */
function configError(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error("expected a ConfigError");
}

const SECRET = "s3cr3t-value-that-is-long-enough-0123456789";
const production = {
  AUTHSVC_MODE: "production",
  AUTHSVC_PUBLIC_URL: "https://auth.example.com",
  AUTHSVC_SMTP_URL: "smtps://mailer:hunter2pass@smtp.example.com:465",
  AUTHSVC_SECRET: SECRET,
  AUTHSVC_MAIL_FROM: "Example <no-reply@example.com>",
  AUTHSVC_WEBSITE_URL: "https://app.example.com",
};

describe("config precedence: flag > env > file > default", () => {
  const file = configFile({ port: 4001, bcryptCost: 12, websiteUrl: "https://file.example.com", accessTokenLifetime: "20m" });

  it("takes the default when nothing is given", () => {
    const r = resolveConfig({ env: {} });
    expect(r.config.port).toBe(3567);
    expect(r.sources.port).toBe("default");
    expect(r.config.accessTokenLifetimeMs).toBe(15 * 60_000);
  });
  it("file beats default", () => {
    const r = resolveConfig({ env: {}, configFile: file });
    expect(r.config.port).toBe(4001);
    expect(r.sources.port).toBe("file");
    expect(r.config.accessTokenLifetimeMs).toBe(20 * 60_000);
    expect(r.configFile).toBe(file);
  });
  it("env beats file", () => {
    const r = resolveConfig({ env: { AUTHSVC_PORT: "4002" }, configFile: file });
    expect(r.config.port).toBe(4002);
    expect(r.sources.port).toBe("env");
    expect(r.config.bcryptCost).toBe(12); // still from the file
  });
  it("flag beats env and file", () => {
    const r = resolveConfig({ flags: { port: "4003" }, env: { AUTHSVC_PORT: "4002" }, configFile: file });
    expect(r.config.port).toBe(4003);
    expect(r.sources.port).toBe("flag");
  });
  it("finds the config file through --config or AUTHSVC_CONFIG", () => {
    expect(resolveConfig({ flags: { config: file }, env: {} }).config.port).toBe(4001);
    expect(resolveConfig({ env: { AUTHSVC_CONFIG: file } }).config.port).toBe(4001);
  });
  it("derives defaults from earlier settings", () => {
    const r = resolveConfig({ env: { AUTHSVC_WEBSITE_URL: "https://app.example.com/" } });
    expect(r.config.corsOrigins).toEqual(["https://app.example.com"]);
    expect(resolveConfig({ env: production }).config.host).toBe("0.0.0.0");
  });
  it("treats an empty environment variable as unset", () => {
    expect(resolveConfig({ env: { AUTHSVC_PORT: "" } }).config.port).toBe(3567);
  });
  it("freezes the result", () => {
    const { config } = resolveConfig({ env: {} });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.corsOrigins)).toBe(true);
  });
});

describe("config: bad values name the setting and the value", () => {
  it("names the flag", () => {
    const msg = configError(() => resolveConfig({ flags: { port: "70000" }, env: {} }));
    expect(msg).toContain("--port");
    expect(msg).toContain("70000");
  });
  it("names the environment variable", () => {
    const msg = configError(() => resolveConfig({ env: { AUTHSVC_ACCESS_TOKEN_LIFETIME: "soon" } }));
    expect(msg).toContain("AUTHSVC_ACCESS_TOKEN_LIFETIME");
    expect(msg).toContain('"soon"');
  });
  it("names the key and the file", () => {
    const file = configFile({ cookieSameSite: "sometimes" });
    const msg = configError(() => resolveConfig({ env: {}, configFile: file }));
    expect(msg).toContain('"cookieSameSite"');
    expect(msg).toContain(file);
    expect(msg).toContain("sometimes");
  });
  it("refuses unknown keys, broken JSON and missing files", () => {
    expect(configError(() => resolveConfig({ env: {}, configFile: configFile({ prot: 1 }) }))).toContain('"prot"');
    // Internal field names are not file keys: "accessTokenLifetimeMs": 900000 would read as seconds.
    expect(configError(() => resolveConfig({ env: {}, configFile: configFile({ accessTokenLifetimeMs: 900000 }) }))).toContain('"accessTokenLifetimeMs"');
    expect(configError(() => resolveConfig({ env: {}, configFile: configFile("{port: 1") }))).toMatch(/not valid JSON/);
    expect(configError(() => resolveConfig({ env: {}, configFile: "/nonexistent/authsvc.json" }))).toBe("cannot read config file /nonexistent/authsvc.json: no such file or directory (ENOENT); check --config (AUTHSVC_CONFIG)");
  });
  it("refuses a database URL of another kind instead of taking it as a SQLite file name", () => {
    expect(configError(() => resolveConfig({ env: { AUTHSVC_DATABASE: "postgress://app:pw-123@db.example.com/auth" } }))).toBe(
      'invalid value for AUTHSVC_DATABASE (environment): "postgress://app:****@db.example.com/auth": postgress:// is not a supported database; authsvc uses a SQLite file (a path such as ./authsvc.db) or PostgreSQL (postgres://user:password@host:5432/db); did you mean postgres://?',
    );
    expect(configError(() => resolveConfig({ flags: { database: "mysql://root@localhost/auth" }, env: {} }))).toBe(
      'invalid value for --database: "mysql://root@localhost/auth": mysql:// is not a supported database; authsvc uses a SQLite file (a path such as ./authsvc.db) or PostgreSQL (postgres://user:password@host:5432/db)',
    );
    for (const ok of ["./authsvc.db", "sqlite://./a.db", "postgresql://db/auth", "/var/lib/authsvc/auth.db"]) expect(resolveConfig({ flags: { database: ok }, env: {} }).config.database).toBe(ok);
  });
  it("suggests the key a mistyped one most likely meant", () => {
    const unknown = (content: object) => configError(() => resolveConfig({ env: {}, configFile: configFile(content) })).replace(/^config file \S+: /, "");
    expect(unknown({ pubilcUrl: "https://auth.example.com" })).toBe('unknown setting "pubilcUrl"; did you mean "publicUrl"?');
    expect(unknown({ smtpURL: "smtp://x" })).toBe('unknown setting "smtpURL"; did you mean "smtpUrl"?');
    expect(unknown({ trustedProxy: "10.0.0.0/8" })).toBe('unknown setting "trustedProxy"; did you mean "trustedProxies"?');
    // The internal name of a duration points at its file key (which reads "15m", not milliseconds).
    expect(unknown({ accessTokenLifetimeMs: 900000 })).toBe('unknown setting "accessTokenLifetimeMs"; did you mean "accessTokenLifetime"?');
    // Nothing near: no random guess, but where to look.
    expect(unknown({ favouriteColour: "blue" })).toBe('unknown setting "favouriteColour"; `authsvc config` lists the keys the file accepts');
  });
  it("refuses a mistyped AUTHSVC_ variable, naming the one it most likely meant", () => {
    expect(configError(() => resolveConfig({ env: { AUTHSVC_PUBILC_URL: "https://auth.example.com" } }))).toBe("unknown environment variable AUTHSVC_PUBILC_URL; did you mean AUTHSVC_PUBLIC_URL?");
    expect(configError(() => resolveConfig({ env: { AUTHSVC_SMTP_ULR: "smtp://x" } }))).toBe("unknown environment variable AUTHSVC_SMTP_ULR; did you mean AUTHSVC_SMTP_URL?");
    expect(configError(() => resolveConfig({ env: { AUTHSVC_SECERT: SECRET } }))).toBe("unknown environment variable AUTHSVC_SECERT; did you mean AUTHSVC_SECRET?");
    // The environment is shared: an AUTHSVC_ name near no setting (an app's own) is left alone, as is AUTHSVC_CONFIG.
    expect(resolveConfig({ env: { AUTHSVC_URL: "https://auth.example.com", AUTHSVC_TEST_PG_URL: "postgres://x", AUTHSVC_CONFIG: "" } }).config.publicUrl).toBe("http://localhost:3567");
  });
  it("never shows a secret in the message", () => {
    const msg = configError(() => resolveConfig({ env: { AUTHSVC_SECRET: "too-short-secret" } }));
    expect(msg).toContain("AUTHSVC_SECRET");
    expect(msg).not.toContain("too-short-secret");
  });
  it("masks the password of a bad SMTP or database URL", () => {
    const smtp = configError(() => resolveConfig({ env: { AUTHSVC_SMTP_URL: "http://mailer:hunter2pass@smtp.example.com" } }));
    expect(smtp).toContain("AUTHSVC_SMTP_URL");
    expect(smtp).not.toContain("hunter2pass");
    const providers = configError(() => resolveConfig({ env: { AUTHSVC_PROVIDERS: '[{"clientSecret":"provider-secret-xyz"}]' } }));
    expect(providers).toContain("AUTHSVC_PROVIDERS");
    expect(providers).not.toContain("provider-secret-xyz");
  });
  it("never lets the password minimum go below 8 or the bcrypt cost below 4", () => {
    expect(configError(() => resolveConfig({ env: { AUTHSVC_PASSWORD_MIN_LENGTH: "7" } }))).toContain("AUTHSVC_PASSWORD_MIN_LENGTH");
    expect(configError(() => resolveConfig({ flags: { bcryptCost: "3" }, env: {} }))).toContain("--bcrypt-cost");
  });
  it("refuses SameSite=None without Secure cookies", () => {
    expect(configError(() => resolveConfig({ env: { AUTHSVC_COOKIE_SAME_SITE: "none", AUTHSVC_COOKIE_SECURE: "false" } }))).toMatch(/cookie-same-site/);
  });
});

describe("config: production mode", () => {
  it("refuses to start without a public URL, an SMTP relay and a secret, and names all three", () => {
    const msg = configError(() => resolveConfig({ flags: { production: true }, env: {} }));
    expect(msg).toContain("--public-url");
    expect(msg).toContain("--smtp-url");
    expect(msg).toContain("AUTHSVC_SECRET");
  });
  it.each([
    ["AUTHSVC_PUBLIC_URL", "--public-url"],
    ["AUTHSVC_SMTP_URL", "--smtp-url"],
    ["AUTHSVC_SECRET", "AUTHSVC_SECRET"],
  ])("refuses when only %s is missing, naming it", (missing, named) => {
    const env: Record<string, string> = { ...production };
    delete env[missing];
    const msg = configError(() => resolveConfig({ env }));
    expect(msg).toMatch(/^production mode needs/);
    expect(msg).toContain(named);
    expect(msg).not.toContain(SECRET);
  });
  it("starts with all three, binds to every interface and turns the catcher off", () => {
    const { config } = resolveConfig({ env: production });
    expect(config.mode).toBe("production");
    expect(config.mailCatcher).toBe(false);
    expect(config.host).toBe("0.0.0.0");
  });
  it("refuses an http:// public URL, saying what to do, unless --allow-http-public-url", () => {
    const msg = configError(() => resolveConfig({ env: { ...production, AUTHSVC_PUBLIC_URL: "http://auth.example.com" } }));
    expect(msg).toMatch(/^production mode: the public URL http:\/\/auth\.example\.com is plain http: give the https:\/\/ address clients reach/);
    expect(msg).toContain("--allow-http-public-url (AUTHSVC_ALLOW_HTTP_PUBLIC_URL)");
    const allowed = resolveConfig({ flags: { allowHttpPublicUrl: true }, env: { ...production, AUTHSVC_PUBLIC_URL: "http://auth.example.com" } }).config;
    expect(allowed.publicUrl).toBe("http://auth.example.com");
    // Development is unchanged: http://localhost is its default.
    expect(resolveConfig({ env: {} }).config.publicUrl).toBe("http://localhost:3567");
  });
  it.each([
    ["the default", undefined, 'the default sender "authsvc <no-reply@localhost>" is not an address at a real domain'],
    ["a localhost address", "Shop <shop@mail.localhost>", '--mail-from (AUTHSVC_MAIL_FROM) "Shop <shop@mail.localhost>" is not an address at a real domain'],
    ["a bare host", "no-reply@myserver", '--mail-from (AUTHSVC_MAIL_FROM) "no-reply@myserver" is not an address at a real domain'],
    ["a loopback address", "no-reply@127.0.0.1", "is not an address at a real domain"],
  ])("refuses %s as the mail sender", (_, from, said) => {
    const env: Record<string, string> = { ...production };
    if (from === undefined) delete env.AUTHSVC_MAIL_FROM; else env.AUTHSVC_MAIL_FROM = from;
    const msg = configError(() => resolveConfig({ env }));
    expect(msg).toContain(said);
    expect(msg).toContain('set --mail-from (AUTHSVC_MAIL_FROM) to one your SMTP relay may send from, e.g. "Example <no-reply@example.com>"');
  });
  it("names both problems at once: an http public URL and a localhost sender", () => {
    const env: Record<string, string> = { ...production, AUTHSVC_PUBLIC_URL: "http://auth.example.com" };
    delete env.AUTHSVC_MAIL_FROM;
    const msg = configError(() => resolveConfig({ env }));
    expect(msg).toMatch(/plain http.*; and the default sender/);
  });
  it("names every missing setting and every problem in one message, not one round at a time", () => {
    // Only the mode and an http public URL: the two missing settings, the http URL, the default
    // sender and the low cost all come in the first refusal.
    const msg = configError(() => resolveConfig({ env: { AUTHSVC_MODE: "production", AUTHSVC_PUBLIC_URL: "http://auth.example.com", AUTHSVC_BCRYPT_COST: "8" } }));
    expect(msg).toMatch(/^production mode needs --smtp-url \(AUTHSVC_SMTP_URL\), AUTHSVC_SECRET; and the public URL http:\/\/auth\.example\.com is plain http: .*; and the website URL is left at its development default http:\/\/localhost:3000, so mail links would point there: set --website-url \(AUTHSVC_WEBSITE_URL\) .*; and the default sender "authsvc <no-reply@localhost>" is not an address at a real domain: .*; and --bcrypt-cost \(AUTHSVC_BCRYPT_COST\) is 8: production mode needs a cost of 10 or more$/);
    // A public URL that is missing is named once, as missing (its http default is not a second problem).
    const bare = configError(() => resolveConfig({ env: { AUTHSVC_MODE: "production" } }));
    expect(bare).toMatch(/^production mode needs --public-url \(AUTHSVC_PUBLIC_URL\), --smtp-url \(AUTHSVC_SMTP_URL\), AUTHSVC_SECRET; and the website URL is left at its development default .*; and the default sender /);
    expect(bare).not.toContain("plain http");
  });
  it("refuses a website URL left at its development default: production mail links would point at localhost", () => {
    const { AUTHSVC_WEBSITE_URL: _given, ...withoutWebsite } = production;
    const msg = configError(() => resolveConfig({ env: withoutWebsite }));
    expect(msg).toBe("production mode: the website URL is left at its development default http://localhost:3000, so mail links would point there: " +
      "set --website-url (AUTHSVC_WEBSITE_URL) to your frontend's address, e.g. https://app.example.com, or to the public URL to use the hosted pages");
    // Given, even as the public URL (the hosted pages as the website), it starts.
    expect(resolveConfig({ env: { ...withoutWebsite, AUTHSVC_WEBSITE_URL: "https://auth.example.com" } }).config.hostedPages).toBe(true);
  });
  it("refuses a bcrypt cost under 10", () => {
    expect(configError(() => resolveConfig({ env: { ...production, AUTHSVC_BCRYPT_COST: "9" } }))).toMatch(/bcrypt-cost.*10 or more/);
  });
  it("refuses --production with a contradicting --mode", () => {
    expect(configError(() => resolveConfig({ flags: { production: true, mode: "development" }, env: production }))).toMatch(/conflicts/);
  });
});

describe("describeConfig (authsvc config)", () => {
  const providers = [{ thirdPartyId: "my-oidc", clientId: "client-1", clientSecret: "provider-secret-xyz", oidcDiscoveryEndpoint: "https://id.example.com/.well-known/openid-configuration" }];
  const resolved = resolveConfig({
    flags: { database: "postgres://app:dbpass123@db.example.com:5432/auth?schema=auth" },
    env: { ...production, AUTHSVC_PROVIDERS: JSON.stringify(providers) },
    configFile: configFile({ bodyLimit: 32768 }),
  });
  const rows = describeConfig(resolved);
  const row = (key: string) => rows.find((r) => r.key === key)!;
  const text = JSON.stringify(rows);

  it("shows every setting with its source", () => {
    expect(row("database").source).toBe("flag");
    expect(row("smtpUrl").source).toBe("env");
    expect(row("bodyLimit")).toMatchObject({ value: 32768, source: "file" });
    expect(row("port")).toMatchObject({ value: 3567, source: "default", flag: "--port", env: "AUTHSVC_PORT" });
  });
  it("masks every secret: database and SMTP passwords, the server secret, provider client secrets", () => {
    for (const secret of ["dbpass123", "hunter2pass", SECRET, "provider-secret-xyz"]) expect(text).not.toContain(secret);
    expect(row("database").value).toBe("postgres://app:****@db.example.com:5432/auth?schema=auth");
    expect(row("smtpUrl").value).toBe("smtps://mailer:****@smtp.example.com:465");
    expect(row("secret").value).toBe("********");
    expect(row("providers").value).toEqual([{ ...providers[0], clientSecret: "********" }]);
  });
  it("masks a password that holds an unencoded @ entirely", () => {
    const r = resolveConfig({ env: { AUTHSVC_SMTP_URL: "smtp://mailer:p@ss@smtp.example.com:587" } });
    expect(describeConfig(r).find((x) => x.key === "smtpUrl")!.value).toBe("smtp://mailer:****@smtp.example.com:587");
  });
});

describe("testConfig", () => {
  it("is development with a fast hash and silent logs", () => {
    expect(testConfig()).toMatchObject({ mode: "development", bcryptCost: 4, logLevel: "silent", mailCatcher: false });
  });
});
