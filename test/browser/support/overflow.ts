import type { Page } from 'playwright-core';

// Measuring a console page for horizontal overflow (docs/console.md's responsive rules).

export interface OverflowReading {
  /** document.documentElement.scrollWidth: the page's width including anything sticking out. */
  scrollWidth: number;
  /** document.documentElement.clientWidth: the viewport's width less a vertical scrollbar. */
  clientWidth: number;
  /** The outermost elements reaching past the viewport's right edge, and controls cut off by a box that clips: what to fix. */
  culprits: string[];
}

// A string, as the tests compile without the DOM types. An element counts as a culprit when its
// right edge passes the viewport, no ancestor clips it (a box that scrolls on its own is fine),
// and its parent is not a culprit itself (the outermost one names the component to fix).
const READ_OVERFLOW = `(() => {
  const root = document.documentElement;
  const limit = root.clientWidth + 0.5;
  const clipped = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      if (getComputedStyle(p).overflowX !== 'visible' && p.getBoundingClientRect().right <= limit) return true;
    }
    return false;
  };
  const sticksOut = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.right > limit && !clipped(el); };
  const name = (el) => {
    const id = el.getAttribute('data-testid');
    const cls = [...el.classList].filter((c) => /^(Ra|Mui)[A-Za-z]+-(root|main|content|table)|^Ra[A-Za-z]+-/.test(c)).slice(0, 3).join('.');
    return el.tagName.toLowerCase() + (id ? '[data-testid=' + id + ']' : '') + (cls ? '.' + cls : '');
  };
  const culprits = [];
  if (root.scrollWidth > root.clientWidth) for (const el of document.body.querySelectorAll('*')) {
    if (culprits.length >= 6) break;
    if (!sticksOut(el) || (el.parentElement && el.parentElement !== document.body && sticksOut(el.parentElement))) continue;
    const path = [];
    for (let p = el; p && p !== document.body && path.length < 4; p = p.parentElement) path.unshift(name(p));
    culprits.push(path.join(' > ') + ' (right ' + Math.round(el.getBoundingClientRect().right) + ')');
  }
  // A control cut off by a box that clips without scrolling (a Card) does not widen the page,
  // but cannot be reached either: every visible button, link, input and tab must be on screen
  // or inside a box that scrolls to it.
  const scrolls = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      if (['auto', 'scroll'].includes(getComputedStyle(p).overflowX) && p.scrollWidth > p.clientWidth) return true;
    }
    return false;
  };
  for (const el of document.body.querySelectorAll('button, a[href], input:not([type=hidden]):not([type=checkbox]):not([type=radio]), textarea, [role=button], [role=tab]')) {
    if (culprits.length >= 6) break;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || !el.checkVisibility({ visibilityProperty: true }) || el.closest('[aria-hidden=true]')) continue;
    if ((r.right > limit || r.left < -0.5) && !scrolls(el)) culprits.push('control off screen: ' + name(el) + ' "' + (el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 40) + '" (' + Math.round(r.left) + '..' + Math.round(r.right) + ')');
  }
  return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, culprits };
})()`;

export function readOverflow(page: Page): Promise<OverflowReading> {
  return page.evaluate(READ_OVERFLOW) as Promise<OverflowReading>;
}

/**
 * Waits until the page has drawn what it loads: no spinner or skeleton showing and the same
 * width twice in a row (a busy machine gets up to `timeoutMs`; the reading is taken regardless).
 */
export async function settle(page: Page, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let previous = -1;
  while (Date.now() < deadline) {
    const loading = await page.locator('.MuiCircularProgress-root:visible, .MuiSkeleton-root:visible').count();
    const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
    if (loading === 0 && width === previous) return;
    previous = loading === 0 ? width : -1;
    await page.waitForTimeout(250);
  }
}
