// The little Markdown a reply may use, parsed to plain data (render.ts turns it into DOM with
// text nodes only): paragraphs and line breaks, **bold**, *italic*, `code`, [links](https://…),
// bare http(s) links, and "- " / "1. " lists. Anything else stays text, shown as written.

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'strong' | 'em'; children: Inline[] }
  | { kind: 'code'; text: string }
  | { kind: 'link'; href: string; children: Inline[] }
  | { kind: 'br' };

export type Block = { kind: 'p'; children: Inline[] } | { kind: 'list'; ordered: boolean; items: Inline[][] };

const BULLET = /^\s{0,3}[-*•]\s+(.*)$/;
const NUMBERED = /^\s{0,3}\d{1,3}[.)]\s+(.*)$/;

/** Only links a visitor can safely follow: web and mail addresses. */
export function safeHref(href: string): string | null {
  const trimmed = href.trim();
  return /^(https?:\/\/|mailto:)[^\s<>"]+$/i.test(trimmed) ? trimmed : null;
}

export function parseMarkdown(text: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: string[] } | null = null;
  const flushParagraph = () => {
    if (paragraph.length) blocks.push({ kind: 'p', children: joinLines(paragraph) });
    paragraph = [];
  };
  const flushList = () => {
    if (list) blocks.push({ kind: 'list', ordered: list.ordered, items: list.items.map(parseInline) });
    list = null;
  };
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    const item = bullet ?? numbered;
    if (item) {
      flushParagraph();
      const ordered = numbered !== null;
      if (list && list.ordered !== ordered) flushList();
      list ??= { ordered, items: [] };
      list.items.push(item[1]);
    } else if (line.trim() === '') {
      flushParagraph();
      flushList();
    } else if (list && /^\s{2,}\S/.test(line)) {
      list.items[list.items.length - 1] += ` ${line.trim()}`; // an item's continuation line
    } else {
      flushList();
      paragraph.push(line);
    }
  }
  flushParagraph();
  flushList();
  return blocks;
}

function joinLines(lines: string[]): Inline[] {
  const out: Inline[] = [];
  lines.forEach((line, i) => {
    if (i > 0) out.push({ kind: 'br' });
    out.push(...parseInline(line));
  });
  return out;
}

// One pass over the line: the earliest of code, link, bold, italic or bare URL wins.
const TOKENS: { kind: 'code' | 'link' | 'strong' | 'em' | 'url'; re: RegExp }[] = [
  { kind: 'code', re: /`([^`\n]+)`/ },
  { kind: 'link', re: /\[([^\]\n]+)\]\(([^)\s]+)\)/ },
  { kind: 'strong', re: /\*\*(?=\S)([^*\n]*?\S)\*\*|__(?=\S)([^_\n]*?\S)__/ },
  { kind: 'em', re: /(?<![\w*])\*(?=\S)([^*\n]*?\S)\*(?![\w*])|(?<![\w_])_(?=\S)([^_\n]*?\S)_(?![\w_])/ },
  { kind: 'url', re: /\bhttps?:\/\/[^\s<>"')\]]+[^\s<>"')\].,;:!?]/ },
];

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let rest = text;
  while (rest) {
    let best: { kind: (typeof TOKENS)[number]['kind']; m: RegExpExecArray } | null = null;
    for (const t of TOKENS) {
      const m = t.re.exec(rest);
      if (m && (!best || m.index < best.m.index)) best = { kind: t.kind, m };
    }
    if (!best) {
      pushText(out, rest);
      break;
    }
    const { kind, m } = best;
    if (m.index > 0) pushText(out, rest.slice(0, m.index));
    if (kind === 'code') out.push({ kind: 'code', text: m[1] });
    else if (kind === 'link') {
      const href = safeHref(m[2]);
      if (href) out.push({ kind: 'link', href, children: parseInline(m[1]) });
      else pushText(out, m[0]);
    } else if (kind === 'url') out.push({ kind: 'link', href: m[0], children: [{ kind: 'text', text: m[0] }] });
    else out.push({ kind, children: parseInline(m[1] ?? m[2]) });
    rest = rest.slice(m.index + m[0].length);
  }
  return out;
}

function pushText(out: Inline[], text: string): void {
  const last = out[out.length - 1];
  if (last?.kind === 'text') last.text += text;
  else out.push({ kind: 'text', text });
}
