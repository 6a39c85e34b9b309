import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeValidity, renderMail as render, type MailKind, type MailVars, type TemplateOverride } from "../../src/mail/templates.js";
import { viewCaughtMail } from "../../src/mail/caught-mail-view.js";
import { mail } from "../../src/rooms.js";
import { loadTemplateOverrides } from "../../src/mail/template-files.js";
import { templateIn } from "../../src/mail/kinds.js";
import { wordsIn } from "../helpers/words.js";

// The templates as the rooms declare them (Room.mail), by kind.
const renderMail = (kind: MailKind, v: MailVars, o?: TemplateOverride) => render(templateIn(mail.kind(kind), wordsIn("en")).template, v, o);

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
    const overrides = loadTemplateOverrides(dir, mail);
    const m = renderMail("password_reset", vars, overrides.password_reset);
    expect(m.subject).toBe("Acme: new password for ada@example.com");
    expect(m.text).toBe(`Go to ${vars.link} within 1 hour.`);
    expect(m.html).toContain("Choose a new password"); // not overridden: the built-in HTML
    writeFileSync(join(dir, "email-verification.html"), "<p>{{lnk}}</p>");
    expect(() => loadTemplateOverrides(dir, mail)).toThrow(/email-verification\.html: unknown placeholder \{\{lnk\}\}/);
    expect(() => loadTemplateOverrides(join(dir, "missing"), mail)).toThrow(/does not exist/);
  });

  // The passwordless code-only mail has no link (its code is checked in test/passwordless and page-polish).
  it.each(mail.kinds.filter((k) => k !== "passwordless_code"))("%s: a styled, accessible HTML part (table layout, inline styles, a button and the plain URL that wraps) beside the text part", (kind) => {
    const long = `http://localhost:3000/auth/reset-password?token=${"x".repeat(120)}&tenantId=public`;
    const m = renderMail(kind, { ...vars, link: long, provider: "GitHub", details: "Acme (member)" });
    expect(m.html).toMatch(/^<!doctype html>\n<html lang="en" dir="ltr">/);
    expect(m.html).toContain(`<title>${m.subject}</title>`);
    expect(m.html).not.toMatch(/<style|<link /); // inline styles only: many clients drop style sheets
    // Every layout table is presentational; there is no table without it.
    expect(m.html.match(/<table /g)!.length).toBe(m.html.match(/<table role="presentation"/g)!.length);
    const hrefs = [...m.html.matchAll(/<a href="([^"]+)" style="([^"]+)">([^<]+)<\/a>/g)];
    expect(hrefs.map((h) => h[1])).toEqual([long.replace(/&/g, "&amp;"), long.replace(/&/g, "&amp;")]);
    expect(hrefs[0][2]).toMatch(/background|color:#ffffff/); // the button
    expect(hrefs[1][3]).toBe(long.replace(/&/g, "&amp;")); // the plain URL, shown in full…
    expect(hrefs[1][2]).toContain("word-break:break-all"); // …and wrapping rather than running out of its frame
    expect(m.text).toContain(long);
    expect(m.text).not.toMatch(/<[a-z]/i);
  });

  it.each(mail.kinds)("%s: the development inbox and tail-mail name it by its kind, never \"other\"", (kind) => {
    const row = { id: 1, received_at: 0, to_address: "ada@example.com", subject: "s", text_body: "t", html_body: null, headers: JSON.stringify([["X-Authsvc-Action", mail.kind(kind).action]]) };
    expect(viewCaughtMail(mail, row as never).action).toBe(mail.kind(kind).action);
  });
});
