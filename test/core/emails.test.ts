import { describe, expect, it } from "vitest";
import { canonicalEmail, isValidEmail } from "../../src/core/emails.js";

describe("canonicalEmail", () => {
  it("trims and lowercases", () => {
    expect(canonicalEmail("  Ada@Example.COM \t")).toBe("ada@example.com");
    expect(canonicalEmail("ADA.Lovelace+tag@EXAMPLE.com")).toBe("ada.lovelace+tag@example.com");
  });
  it("turns an IDN domain into punycode, so both spellings are one account", () => {
    expect(canonicalEmail("Ada@Bücher.example")).toBe("ada@xn--bcher-kva.example");
    expect(canonicalEmail("ada@xn--bcher-kva.example")).toBe(canonicalEmail("ada@BÜCHER.example"));
    expect(canonicalEmail("ada@例え.jp")).toBe("ada@xn--r8jz45g.jp");
  });
  it("leaves the local part alone apart from case", () => {
    expect(canonicalEmail("Ünïcode@example.com")).toBe("ünïcode@example.com");
  });
  it("uses the last @ as the separator", () => {
    expect(canonicalEmail('"a@b"@Example.com')).toBe('"a@b"@example.com');
  });
});

describe("isValidEmail", () => {
  it.each(["ada@example.com", "a.b+c@sub.example.co.uk", "ada@xn--bcher-kva.example", "x@[127.0.0.1]"])("accepts %s", (e) => {
    expect(isValidEmail(canonicalEmail(e))).toBe(true);
  });
  it.each([
    "", "ada", "ada@", "@example.com", "ada@example", "ada@@example.com", "a b@example.com",
    "ada@example.com\r\nBcc: eve@example.com", "ada@example.com,eve@example.com", "ada@example.com;eve@example.com",
    "Ada <ada@example.com>", "ada\u0000@example.com", `${"a".repeat(250)}@example.com`,
  ])("refuses %j", (e) => {
    expect(isValidEmail(canonicalEmail(e))).toBe(false);
  });
});
