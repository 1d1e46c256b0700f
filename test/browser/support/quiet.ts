import type { Page, Request } from 'playwright-core';

// Waiting for a console page to finish drawing what it loads, without a fixed sleep. The wait
// ends once no request of the page is in flight (its data, and the code of a lazily loaded
// view: until that arrives React keeps showing the previous page), no loading placeholder
// shows, and neither the requests, the DOM nor the page's width changed for a short while.
// The accessibility walk's fixed second per page was most of its time (docs/console.md).

/** Spinners and skeletons react-admin and MUI show while a page loads. */
const LOADING = '.MuiCircularProgress-root, .MuiSkeleton-root, [class*="RaDatagridLoading"], .RaLoading-root';

const POLL_MS = 50;

interface Traffic {
  inflight: Set<Request>;
  /** Date.now() of the last request that started or ended. */
  last: number;
}

const traffic = new WeakMap<Page, Traffic>();

/** The page's requests in flight, counted from the first wait on it (the console opens no long-lived ones). */
function trafficOf(page: Page): Traffic {
  let t = traffic.get(page);
  if (!t) {
    const fresh: Traffic = { inflight: new Set(), last: Date.now() };
    const done = (r: Request) => {
      fresh.inflight.delete(r);
      fresh.last = Date.now();
    };
    page.on('request', (r) => {
      fresh.inflight.add(r);
      fresh.last = Date.now();
    });
    page.on('requestfinished', done);
    page.on('requestfailed', done);
    traffic.set(page, fresh);
    t = fresh;
  }
  return t;
}

// Strings, as the tests compile without the DOM's types. The observer is installed once per
// document (a hash navigation keeps it) and restarted on each wait, as a navigation's first
// render may not have begun yet.
const START = `(() => {
  if (!window.__sbQuiet) {
    const q = (window.__sbQuiet = { last: 0, width: -1 });
    new MutationObserver(() => { q.last = performance.now(); })
      .observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
  }
  window.__sbQuiet.last = performance.now();
})()`;

/**
 * Milliseconds since the DOM or the page's width last changed; -1 while a placeholder shows, and
 * null in a document the observer is not in (a full navigation replaced it).
 */
const QUIET_FOR = `(() => {
  const q = window.__sbQuiet;
  if (!q) return null;
  const width = document.documentElement.scrollWidth;
  if (width !== q.width) { q.width = width; q.last = performance.now(); }
  for (const el of document.querySelectorAll(${JSON.stringify(LOADING)})) if (el.checkVisibility()) return -1;
  return performance.now() - q.last;
})()`;

export interface QuietOptions {
  /** How long nothing may change (requests, DOM, width) for the page to count as drawn. */
  quietMs?: number;
  /**
   * The shortest wait. Some content comes later than the quiet shows: the responsive walk's
   * expandable rows, read this way with 250 ms of quiet and no floor, were missing from 4 of 141
   * readings that its own wait (the same width twice, 250 ms apart, twice per route) took.
   */
  minMs?: number;
  /** The longest wait; the caller goes on regardless (a busy machine, a page that polls). */
  timeoutMs?: number;
}

/** Waits until the page has drawn what it loads (see the top of this file); never throws on a timeout. */
export async function waitForQuiet(page: Page, { quietMs = 250, minMs = 0, timeoutMs = 20_000 }: QuietOptions = {}): Promise<void> {
  const net = trafficOf(page);
  const earliest = Date.now() + minMs;
  const deadline = Date.now() + timeoutMs;
  let observing = false;
  while (Date.now() < deadline) {
    let domQuietMs: number | null = -1;
    try {
      if (observing) domQuietMs = await page.evaluate<number | null>(QUIET_FOR);
      else await page.evaluate(START);
    } catch {
      // The document went away mid-call (a full navigation): observe the next one.
      domQuietMs = null;
    }
    observing = domQuietMs !== null;
    const quiet = net.inflight.size === 0 && Date.now() - net.last >= quietMs && domQuietMs !== null && domQuietMs >= quietMs;
    if (quiet && Date.now() >= earliest) return;
    await page.waitForTimeout(POLL_MS);
  }
}
