/**
 * Cuts a reply into parts of at most `limit` characters for a platform with a length limit,
 * in order, without losing or reordering any character: at the last paragraph break that
 * fits, else the last line break, else the last sentence end, else the last space, else hard.
 * Each part is trimmed of the blank space at its cut.
 */
export function splitText(text: string, limit: number): string[] {
  const parts: string[] = [];
  let rest = text.trim();
  while (rest.length > limit) {
    const cut = cutPoint(rest, limit);
    const part = rest.slice(0, cut).trimEnd();
    if (part) parts.push(part);
    rest = rest.slice(cut).trimStart();
  }
  if (rest) parts.push(rest);
  return parts;
}

/** Where to cut `text` (longer than `limit`): the end of the first part. */
function cutPoint(text: string, limit: number): number {
  const window = text.slice(0, limit + 1);
  // A break must leave at least a third of the limit, or the parts get silly.
  const floor = Math.floor(limit / 3);
  const candidates = [/\n\s*\n/g, /\n/g, /[.!?…](?=\s)/g, /\s/g];
  for (const pattern of candidates) {
    let best = -1;
    for (const m of window.matchAll(pattern)) {
      const end = pattern.source.startsWith('[') ? m.index + 1 : m.index;
      if (end <= limit && end >= floor) best = end;
    }
    if (best > 0) return best;
  }
  return limit;
}
