import { en } from "../words/kernel/en.js";
import type { Words } from "../words/words.js";

/**
 * The HTML part of the built-in mails: one layout for every kind, written for the clients people
 * read mail in (Gmail, Outlook, Apple Mail, phones). Hence the old-fashioned shape: tables for layout,
 * every style inline (many clients drop <style>), a width that shrinks to a phone's, a system font
 * stack, colours with AA contrast, `lang` and a title for screen readers, and layout tables marked
 * role="presentation" so they are not read out as data. The action is a button and, below it, the
 * plain URL, which wraps anywhere so a long token never runs out of the frame.
 * The output still holds {{placeholders}}: templates.ts fills (and HTML-escapes) the values.
 */
export interface MailLayout {
  /** The heading, and the document title. */
  title: string;
  /** Paragraphs before the button (trusted template HTML, with placeholders). */
  intro: string[];
  /** The button's words; the button and the plain URL both go to {{link}}. None: a mail without a link. */
  button?: string;
  /** A one-time code shown large above the button (trusted template HTML, e.g. "{{code}}"). */
  code?: string;
  /** Paragraphs after the link. */
  outro: string[];
  /** The language it is written in (`<html lang dir>`) and its "Or paste this link" line; English without them. */
  lang?: string;
  dir?: "ltr" | "rtl";
  pasteLink?: string;
}

/** A mail's language in the layout: `<html lang dir>` and the kernel's "Or paste this link" line, in the words of its locale. */
export function mailLanguage(w: Words): Pick<MailLayout, "lang" | "dir" | "pasteLink"> {
  return { lang: w.lang, dir: w.dir, pasteLink: w.html("mail.pasteLink") };
}

const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const p = (html: string, style = "") => `<p style="margin:0 0 16px;${style}">${html}</p>`;

/** One mail's HTML document in the shared layout. */
export function renderMailLayout(m: MailLayout): string {
  return `<!doctype html>
<html lang="${m.lang ?? "en"}" dir="${m.dir ?? "ltr"}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${m.title}</title>
</head>
<body style="margin:0;padding:0;background-color:#f4f5f8;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f4f5f8;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background-color:#ffffff;border:1px solid #c9cdd6;border-radius:8px;">
<tr><td style="padding:28px 20px;font-family:${FONT};font-size:16px;line-height:1.5;color:#1d2330;text-align:start;overflow-wrap:anywhere;word-break:break-word;">
<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;font-weight:700;color:#1d2330;">${m.title}</h1>
${m.intro.map((x) => p(x)).join("\n")}
${m.code === undefined ? "" : renderCode(m.code)}${m.button === undefined ? "" : renderButton(m.button, m.pasteLink ?? en["mail.pasteLink"])}${m.outro.map((x) => p(x, "font-size:14px;color:#4a5263;")).join("\n")}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

/** The code in large spaced monospace digits, easy to read and to type. */
function renderCode(code: string): string {
  return `<p style="margin:8px 0 20px;font-family:ui-monospace,'SFMono-Regular',Menlo,Consolas,monospace;font-size:32px;line-height:1.2;font-weight:700;letter-spacing:6px;color:#1d2330;">${code}</p>\n`;
}

function renderButton(button: string, pasteLink: string): string {
  return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 20px;">
<tr><td style="border-radius:6px;background-color:#1f4fd1;"><a href="{{link}}" style="display:inline-block;padding:12px 22px;font-family:${FONT};font-size:16px;font-weight:600;color:#ffffff;text-decoration:none;border-radius:6px;">${button}</a></td></tr>
</table>
${p(pasteLink, "font-size:14px;color:#4a5263;margin-bottom:4px;")}
${p(`<a href="{{link}}" style="color:#1f4fd1;word-break:break-all;overflow-wrap:anywhere;">{{link}}</a>`, "font-size:14px;word-break:break-all;overflow-wrap:anywhere;")}
`;
}
