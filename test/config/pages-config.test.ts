import { describe, expect, it } from "vitest";
import { ConfigError, resolveConfig } from "../../src/config.js";

function messageOf(env: Record<string, string>): string {
  try {
    resolveConfig({ env });
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error("expected a ConfigError");
}

describe("hosted pages settings", () => {
  it("in development with no website URL, the hosted pages are the website: on, and mail links point at them", () => {
    const dev = resolveConfig({ env: {} }).config;
    expect(dev.websiteUrl).toBe("http://localhost:3567");
    expect(dev.hostedPages).toBe(true);
    expect(dev.corsOrigins).toEqual(["http://localhost:3567"]);
    expect(resolveConfig({ env: { AUTHSVC_PORT: "4100" } }).config.websiteUrl).toBe("http://localhost:4100");
    // A website of its own: the pages stay off unless asked for.
    expect(resolveConfig({ env: { AUTHSVC_WEBSITE_URL: "http://localhost:3000" } }).config.hostedPages).toBe(false);
    // Production names its website (a default one is refused, config.test.ts): no pages unless it is the public URL.
    const prod = resolveConfig({ env: { AUTHSVC_MODE: "production", AUTHSVC_PUBLIC_URL: "https://auth.example.com", AUTHSVC_WEBSITE_URL: "https://app.example.com", AUTHSVC_SMTP_URL: "smtp://relay.example.com:587", AUTHSVC_MAIL_FROM: "Example <no-reply@example.com>", AUTHSVC_SECRET: "s".repeat(32) } }).config;
    expect(prod.websiteUrl).toBe("https://app.example.com");
    expect(prod.hostedPages).toBe(false);
  });

  it("hosted pages are on by default exactly when the website URL is the public URL", () => {
    expect(resolveConfig({ env: { AUTHSVC_PUBLIC_URL: "http://localhost:3567", AUTHSVC_WEBSITE_URL: "http://localhost:3567" } }).config.hostedPages).toBe(true);
    expect(resolveConfig({ env: { AUTHSVC_HOSTED_PAGES: "yes" } }).config.hostedPages).toBe(true);
    expect(resolveConfig({ flags: { hostedPages: false }, env: { AUTHSVC_PUBLIC_URL: "http://localhost:3567", AUTHSVC_WEBSITE_URL: "http://localhost:3567" } }).config.hostedPages).toBe(false);
  });

  it("redirect paths must be paths on the website: no other site, no scheme-relative URL", () => {
    expect(resolveConfig({ env: { AUTHSVC_PAGES_REDIRECT_PATHS: "/dashboard, /app/*" } }).config.pagesRedirectPaths).toEqual(["/dashboard", "/app/*"]);
    for (const bad of ["//evil.example", "https://evil.example/", "dashboard", "/\\\\evil.example"]) {
      expect(messageOf({ AUTHSVC_PAGES_REDIRECT_PATHS: bad })).toMatch(/AUTHSVC_PAGES_REDIRECT_PATHS.*paths starting with a single \//);
    }
  });

  it("the logo is an https URL or a path on this server, never a script URL", () => {
    expect(resolveConfig({ env: { AUTHSVC_PAGES_LOGO_URL: "https://cdn.example.com/logo.svg" } }).config.pagesLogoUrl).toBe("https://cdn.example.com/logo.svg");
    expect(resolveConfig({ env: { AUTHSVC_PAGES_LOGO_URL: "/static/logo.png" } }).config.pagesLogoUrl).toBe("/static/logo.png");
    for (const bad of ["javascript:alert(1)", "http://cdn.example.com/logo.svg", "//cdn.example.com/x.png", "data:image/svg+xml,<svg/>"]) {
      expect(messageOf({ AUTHSVC_PAGES_LOGO_URL: bad })).toMatch(/AUTHSVC_PAGES_LOGO_URL/);
    }
    expect(messageOf({ AUTHSVC_PAGES_PRODUCT_NAME: "x".repeat(61) })).toMatch(/at most 60/);
  });
});
