import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeValidity, renderMail } from "../../src/mail/templates.js";
import { loadTemplateOverrides } from "../../src/mail/template-files.js";

const vars = { email: "ada@example.com", link: "http://localhost:3000/auth/reset-password?token=T&tenantId=public", expiresAt: Date.UTC(2030, 0, 1, 12, 0, 0), validForMs: 3_600_000, websiteUrl: "http://localhost:3000" };

describe("mail templates", () => {
  it("renders text and HTML with the link, the validity and the expiry", () => {
    const m = renderMail("password_reset", vars);
    expect(m.subject).toBe("Reset your password");
    expect(m.text).toContain(vars.link);
    expect(m.text).toContain("valid for 1 hour (until 2030-01-01 12:00:00 UTC)");
    expect(m.html).toContain('href="http://localhost:3000/auth/reset-password?token=T&amp;tenantId=public"');
    expect(describeValidity(86_400_000)).toBe("1 day");
    expect(describeValidity(90 * 60_000)).toBe("90 minutes");
  });

  it("escapes values in HTML and keeps control characters out of the subject", () => {
    const m = renderMail("third_party_account", { ...vars, provider: "<script>alert(1)</script>" }, { subject: "Sign in with {{provider}}\r\nBcc: evil@example.com" });
    expect(m.html).not.toContain("<script>");
    expect(m.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(m.subject).not.toMatch(/[\r\n]/);
  });

  it("loads overrides from files and refuses unknown placeholders", () => {
    const dir = mkdtempSync(join(tmpdir(), "authsvc-tpl-"));
    writeFileSync(join(dir, "password-reset.subject.txt"), "  Acme: new password for {{email}}\n");
    writeFileSync(join(dir, "password-reset.txt"), "Go to {{link}} within {{validFor}}.");
    const overrides = loadTemplateOverrides(dir);
    const m = renderMail("password_reset", vars, overrides.password_reset);
    expect(m.subject).toBe("Acme: new password for ada@example.com");
    expect(m.text).toBe(`Go to ${vars.link} within 1 hour.`);
    expect(m.html).toContain("Choose a new password"); // not overridden: the built-in HTML
    writeFileSync(join(dir, "email-verification.html"), "<p>{{lnk}}</p>");
    expect(() => loadTemplateOverrides(dir)).toThrow(/email-verification\.html: unknown placeholder \{\{lnk\}\}/);
    expect(() => loadTemplateOverrides(join(dir, "missing"))).toThrow(/does not exist/);
  });
});
