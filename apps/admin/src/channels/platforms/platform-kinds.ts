// The platform channel kinds the console can create (docs/channels.md): their settings (shown
// and editable) and credentials (write-only: the API never returns them, an empty field on
// edit keeps the stored one). Mirrors the API's adapter schemas (libs/webhooks channel-adapters.ts).

export interface PlatformField {
  source: string;
  label: string;
  helperText?: string;
  defaultValue?: string;
  required?: boolean;
}

export interface PlatformKind {
  id: string;
  name: string;
  settings: PlatformField[];
  secrets: PlatformField[];
}

export const PLATFORM_KINDS: PlatformKind[] = [
  {
    id: 'telegram',
    name: 'Telegram',
    settings: [{ source: 'apiRoot', label: 'Bot API root', defaultValue: 'https://api.telegram.org', helperText: 'Change only for a local Bot API server' }],
    secrets: [{ source: 'botToken', label: 'Bot token', required: true, helperText: 'From @BotFather (123456:ABC…). The webhook is set for you.' }],
  },
];

export const PLATFORM_KIND_IDS = new Set(PLATFORM_KINDS.map((k) => k.id));

export function platformKind(id: string | undefined): PlatformKind | undefined {
  return PLATFORM_KINDS.find((k) => k.id === id);
}

/**
 * The request body of a platform channel: only its own settings (the form also holds the widget's
 * defaults), and only the credentials typed in (an empty one on edit keeps the stored value).
 */
export function platformBody<T extends { kind?: string; settings?: Record<string, unknown>; secrets?: Record<string, unknown> }>(data: T, kindId?: string): T {
  const kind = platformKind(kindId ?? data.kind);
  if (!kind) return data;
  const settings = Object.fromEntries(kind.settings.map((f) => [f.source, data.settings?.[f.source] || f.defaultValue]).filter(([, v]) => v !== undefined && v !== ''));
  const typed = Object.entries(data.secrets ?? {}).filter(([, v]) => typeof v === 'string' && v !== '');
  const { secrets: _secrets, ...rest } = data;
  return { ...rest, settings, ...(typed.length > 0 && { secrets: Object.fromEntries(typed) }) } as T;
}
