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
  it("hosted pages are on by default exactly when the website URL is the public URL", () => {
    expect(resolveConfig({ env: {} }).config.hostedPages).toBe(false);
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
