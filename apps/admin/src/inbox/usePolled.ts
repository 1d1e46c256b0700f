import { useCallback, useEffect, useRef, useState } from 'react';

/** How often the inbox asks again: new customer messages show within this. */
export const INBOX_POLL_MS = 3000;

/**
 * Loads `load()` now and every `everyMs` while the tab is visible (a hidden tab stops asking),
 * and again at once when it becomes visible. `reload` asks at once (after an action). A short
 * poll rather than a stream: the inbox spans many sessions, and the API's streams are per session.
 */
export function usePolled<T>(load: () => Promise<T>, everyMs = INBOX_POLL_MS) {
  const [data, setData] = useState<T | undefined>();
  const [error, setError] = useState<unknown>();
  const loadRef = useRef(load);
  loadRef.current = load;

  const reload = useCallback(async () => {
    try {
      setData(await loadRef.current());
      setError(undefined);
    } catch (err) {
      setError(err);
    }
  }, []);

  useEffect(() => {
    void reload();
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') void reload();
    }, everyMs);
    const onVisible = () => document.visibilityState === 'visible' && void reload();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [reload, everyMs]);

  return { data, error, reload };
}
