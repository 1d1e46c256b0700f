// The engine's replies are markdown-ish (**bold**, *italic* / _italic_, `code`, ```blocks```,
// [text](url), ~~strike~~). Each platform has its own formatting; these convert to it. What is
// not formatting is escaped where the platform parses (Telegram's HTML), so a reply containing
// "<" or "&" reaches the person as written instead of failing with "can't parse entities".

const CODE_BLOCK = /```(?:[\w+-]*\n)?([\s\S]*?)```/g;
const INLINE = /`([^`\n]+)`|\*\*([^*\n]+)\*\*|__([^_\n]+)__|~~([^~\n]+)~~|\*([^*\n]+)\*|(?<![\w])_([^_\n]+)_(?![\w])|\[([^\]\n]+)\]\((https?:\/\/[^)\s]+)\)/g;

export function escapeTelegramHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(text: string): string {
  return escapeTelegramHtml(text).replace(/"/g, '&quot;');
}

/** Markdown → Telegram's HTML parse mode (b, i, s, code, pre, a); everything else escaped. */
export function toTelegramHtml(markdown: string): string {
  return convert(markdown, {
    text: escapeTelegramHtml,
    block: (code) => `<pre>${escapeTelegramHtml(code)}</pre>`,
    code: (code) => `<code>${escapeTelegramHtml(code)}</code>`,
    bold: (t) => `<b>${escapeTelegramHtml(t)}</b>`,
    italic: (t) => `<i>${escapeTelegramHtml(t)}</i>`,
    strike: (t) => `<s>${escapeTelegramHtml(t)}</s>`,
    link: (t, url) => `<a href="${escapeAttribute(url)}">${escapeTelegramHtml(t)}</a>`,
  });
}

/** Markdown → WhatsApp's formatting (*bold*, _italic_, ~strike~, `code`, ```block```); links as "text (url)". */
export function toWhatsAppText(markdown: string): string {
  return convert(markdown, {
    text: (t) => t,
    block: (code) => '```' + code + '```',
    code: (code) => '`' + code + '`',
    bold: (t) => `*${t}*`,
    italic: (t) => `_${t}_`,
    strike: (t) => `~${t}~`,
    link: (t, url) => (t === url ? url : `${t} (${url})`),
  });
}

function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Markdown → Slack mrkdwn (*bold*, _italic_, ~strike~, `code`, ```block```, <url|text>); & < > escaped. */
export function toSlackMrkdwn(markdown: string): string {
  return convert(markdown, {
    text: escapeSlack,
    block: (code) => '```' + escapeSlack(code) + '```',
    code: (code) => '`' + escapeSlack(code) + '`',
    bold: (t) => `*${escapeSlack(t)}*`,
    italic: (t) => `_${escapeSlack(t)}_`,
    strike: (t) => `~${escapeSlack(t)}~`,
    link: (t, url) => `<${url.replace(/\|/g, '%7C').replace(/>/g, '%3E')}|${escapeSlack(t)}>`,
  });
}

/** Chatwoot renders markdown itself: sent as written. */
export function toChatwootText(markdown: string): string {
  return markdown;
}

interface Renderers {
  text(t: string): string;
  block(code: string): string;
  code(code: string): string;
  bold(t: string): string;
  italic(t: string): string;
  strike(t: string): string;
  link(text: string, url: string): string;
}

function convert(markdown: string, r: Renderers): string {
  let out = '';
  let last = 0;
  for (const m of markdown.matchAll(CODE_BLOCK)) {
    out += inline(markdown.slice(last, m.index), r) + r.block(m[1]);
    last = m.index + m[0].length;
  }
  return out + inline(markdown.slice(last), r);
}

function inline(text: string, r: Renderers): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    out += r.text(text.slice(last, m.index));
    const [, code, bold, bold2, strike, italic, italic2, linkText, url] = m;
    if (code !== undefined) out += r.code(code);
    else if (bold !== undefined || bold2 !== undefined) out += r.bold(bold ?? bold2);
    else if (strike !== undefined) out += r.strike(strike);
    else if (italic !== undefined || italic2 !== undefined) out += r.italic(italic ?? italic2);
    else out += r.link(linkText, url);
    last = m.index + m[0].length;
  }
  return out + r.text(text.slice(last));
}
