// A "Web widget" channel's settings as the console edits them (the API's widget-settings.ts is the
// rule; copied here, as the console builds without the API's code).

export interface WidgetSettings {
  allowedOrigins: string[];
  title: string;
  greeting: string;
  color: string;
  position: 'right' | 'left';
  avatarUrl: string | null;
  language: string;
  conversationDays: number;
}

export const DEFAULT_WIDGET_SETTINGS: WidgetSettings = {
  allowedOrigins: [],
  title: 'Chat',
  greeting: '',
  color: '#2563eb',
  position: 'right',
  avatarUrl: null,
  language: 'auto',
  conversationDays: 30,
};

/** Languages the widget ships; the widget's build lists them in /widget/manifest.json too. */
export const WIDGET_LANGUAGES = [
  { id: 'auto', name: "The visitor's browser language" },
  { id: 'en', name: 'English' },
  { id: 'pt-BR', name: 'Português (Brasil)' },
];

/** The one line a tenant pastes into its pages. The colour and side are in it so the page makes no request before the chat opens. */
export function widgetSnippet(apiOrigin: string, publicId: string, s: Pick<WidgetSettings, 'color' | 'position' | 'language'>): string {
  const language = s.language && s.language !== 'auto' ? ` data-language="${s.language}"` : '';
  return `<script src="${apiOrigin}/widget.js" data-widget="${publicId}" data-color="${s.color}" data-position="${s.position}"${language} async></script>`;
}

/** An exact origin: scheme, host and port, nothing else (what the API accepts). */
export function originError(value: string): string | undefined {
  if (value === '*') return undefined;
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) && url.origin === value ? undefined : `"${value}" is not an exact origin such as https://www.example.com`;
  } catch {
    return `"${value}" is not an exact origin such as https://www.example.com`;
  }
}
