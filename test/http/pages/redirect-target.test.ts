import { describe, expect, it } from "vitest";
import { resolveRedirectTarget } from "../../../src/http/pages/assets/redirect-target.js";

const SITE = "https://shop.example.com";

// Issue 17 point 8: the target is resolved as the browser will resolve it, then checked.
describe("redirect target after a hosted sign-in", () => {
  const everywhere = (requested: unknown) => resolveRedirectTarget(requested, ["/", "/*"], SITE);

  it("keeps an allowed path on the website, with its query and fragment", () => {
    expect(everywhere("/dashboard?tab=2#top")).toBe(`${SITE}/dashboard?tab=2#top`);
    expect(resolveRedirectTarget("/account/orders", ["/home", "/account/*"], SITE)).toBe(`${SITE}/account/orders`);
    expect(resolveRedirectTarget("/home", ["/home", "/account/*"], SITE)).toBe(`${SITE}/home`);
  });

  it("never leaves the website's origin, however the target is spelled", () => {
    const attempts = [
      "/\t/evil.example/phish", "/\r/evil.example", "/\n/evil.example", "\t//evil.example", " //evil.example",
      "/\\evil.example", "\\\\evil.example", "/\\/evil.example", "\\/evil.example",
      "//evil.example/x", "///evil.example", "https://evil.example/", "HTTPS://evil.example", "https:evil.example",
      "http://shop.example.com/", "https://shop.example.com.evil.example/", "https://shop.example.com:8443/",
      "https://user:pass@shop.example.com/", "//user@evil.example", "/@evil.example", // the last stays on the site
      "javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "//%65vil.example",
    ];
    for (const a of attempts) {
      const target = new URL(everywhere(a));
      expect(target.origin, JSON.stringify(a)).toBe(SITE);
      expect(target.username + target.password, JSON.stringify(a)).toBe("");
    }
    expect(everywhere("/\t/evil.example/phish")).toBe(`${SITE}/`);
    expect(everywhere("https://user:pass@shop.example.com/")).toBe(`${SITE}/`);
  });

  it("matches the allow-list on the resolved path, not the raw string", () => {
    const list = ["/home", "/account/*"];
    const at = (requested: string) => resolveRedirectTarget(requested, list, SITE);
    // Dot segments (plain or percent-encoded) resolve out of the allowed prefix: refused.
    expect(at("/account/../admin")).toBe(`${SITE}/home`);
    expect(at("/account/%2e%2e/admin")).toBe(`${SITE}/home`);
    expect(at("/account/%2E%2E/admin")).toBe(`${SITE}/home`);
    // Encoded slashes stay one path segment on the website: allowed only under the prefix.
    expect(at("/account/%2f%2fevil.example")).toBe(`${SITE}/account/%2f%2fevil.example`);
    expect(at("/%2f%2fevil.example")).toBe(`${SITE}/home`);
    expect(at("/%09/evil.example")).toBe(`${SITE}/home`);
    // A TAB inside the path is dropped by the parser before the match, as in the browser.
    expect(at("/acc\tount/orders")).toBe(`${SITE}/account/orders`);
    expect(at("/home/")).toBe(`${SITE}/home`);
    expect(at("")).toBe(`${SITE}/home`);
    expect(resolveRedirectTarget(undefined, list, SITE)).toBe(`${SITE}/home`);
  });

  it("resolves against a website URL with a path as the browser does (a path replaces it)", () => {
    expect(resolveRedirectTarget("/dashboard", ["/*"], "https://example.com/app/")).toBe("https://example.com/dashboard");
  });
});
