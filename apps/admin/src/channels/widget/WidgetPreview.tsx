import { Box, Typography } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { DEFAULT_WIDGET_SETTINGS, type WidgetSettings } from './widget-settings';

type PreviewElement = HTMLElement & { preview: Partial<WidgetSettings> };

let loading: Promise<void> | undefined;

/** The API's /widget.js, once per page, in preview mode (it adds no chat to the console itself). */
function loadWidget(): Promise<void> {
  loading ??= new Promise<void>((resolve, reject) => {
    if (customElements.get('switchboard-chat')) return resolve();
    const script = document.createElement('script');
    script.src = '/widget.js';
    script.dataset.preview = '';
    script.onload = () => resolve();
    script.onerror = () => {
      loading = undefined;
      reject(new Error('The widget is not built on this server (npm run build -w apps/widget).'));
    };
    document.head.appendChild(script);
  });
  return loading;
}

/** The real widget drawn with the form's settings as they are typed, with a sample conversation. */
export function WidgetPreview() {
  const settings = (useWatch({ name: 'settings' }) ?? {}) as Partial<WidgetSettings>;
  const frame = useRef<HTMLDivElement>(null);
  const element = useRef<PreviewElement | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    loadWidget()
      .then(() => {
        if (cancelled || !frame.current || element.current) return;
        const el = document.createElement('switchboard-chat') as PreviewElement;
        el.setAttribute('inline', '');
        frame.current.appendChild(el);
        element.current = el;
      })
      .catch((err: Error) => setError(err.message));
    return () => {
      cancelled = true;
    };
  }, []);

  const json = JSON.stringify({ ...DEFAULT_WIDGET_SETTINGS, ...settings });
  useEffect(() => {
    const s = JSON.parse(json) as WidgetSettings;
    const apply = () => {
      if (element.current) element.current.preview = { title: s.title || ' ', greeting: s.greeting, color: s.color, position: s.position, language: s.language, avatarUrl: s.avatarUrl };
    };
    apply();
    // The element may appear after this effect ran (the script was still loading).
    const timer = setInterval(apply, 300);
    const stop = setTimeout(() => clearInterval(timer), 5000);
    return () => {
      clearInterval(timer);
      clearTimeout(stop);
    };
  }, [json]);

  return (
    <Box sx={{ flex: 1, minWidth: 'min(420px, 100%)' }}>
      <Typography variant="subtitle1" gutterBottom>
        Preview
      </Typography>
      {error && <Typography color="error">{error}</Typography>}
      <Box ref={frame} data-testid="widget-preview" sx={{ position: 'relative', height: 640, borderRadius: 2, bgcolor: 'action.hover', overflow: 'hidden', '& switchboard-chat': { right: 20, bottom: 20 } }} />
    </Box>
  );
}
