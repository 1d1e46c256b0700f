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
  {
    id: 'whatsapp',
    name: 'WhatsApp (Cloud API)',
    settings: [
      { source: 'phoneNumberId', label: 'Phone number id', required: true, helperText: 'WhatsApp → API Setup in Meta for Developers' },
      { source: 'apiRoot', label: 'Graph API root', defaultValue: 'https://graph.facebook.com' },
      { source: 'apiVersion', label: 'Graph API version', defaultValue: 'v21.0' },
      { source: 'template.name', label: 'Template outside the 24-hour window (name)', helperText: 'Optional: sent instead of a reply more than 24 h after the customer last wrote' },
      { source: 'template.language', label: 'Template language', helperText: 'e.g. en_US, pt_BR' },
    ],
    secrets: [
      { source: 'accessToken', label: 'Access token', required: true, helperText: 'A permanent token of a system user with whatsapp_business_messaging' },
      { source: 'appSecret', label: 'App secret', required: true, helperText: 'App settings → Basic; verifies X-Hub-Signature-256' },
    ],
  },
  {
    id: 'slack',
    name: 'Slack',
    settings: [{ source: 'apiRoot', label: 'Slack API root', defaultValue: 'https://slack.com' }],
    secrets: [
      { source: 'botToken', label: 'Bot token', required: true, helperText: 'OAuth & Permissions → Bot User OAuth Token (xoxb-…)' },
      { source: 'signingSecret', label: 'Signing secret', required: true, helperText: 'Basic Information → App Credentials' },
    ],
  },
  {
    id: 'chatwoot',
    name: 'Chatwoot (agent bot)',
    settings: [
      { source: 'baseUrl', label: 'Chatwoot URL', required: true, helperText: 'https://app.chatwoot.com or your own installation' },
      { source: 'accountId', label: 'Account id', required: true, helperText: 'The number in /app/accounts/<id>/' },
    ],
    secrets: [{ source: 'agentBotToken', label: 'Agent bot access token', required: true }],
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
  const settings: Record<string, unknown> = {};
  for (const f of kind.settings) {
    const [head, leaf] = f.source.split('.');
    const value = (leaf ? (data.settings?.[head] as Record<string, unknown> | null | undefined)?.[leaf] : data.settings?.[head]) || f.defaultValue;
    if (value === undefined || value === '') continue;
    if (leaf) settings[head] = { ...(settings[head] as object | undefined), [leaf]: value };
    else settings[head] = value;
  }
  // WhatsApp's template is all or nothing: without a name there is none.
  if (kind.id === 'whatsapp' && !(settings.template as { name?: string } | undefined)?.name) settings.template = null;
  const typed = Object.entries(data.secrets ?? {}).filter(([, v]) => typeof v === 'string' && v !== '');
  const { secrets: _secrets, ...rest } = data;
  return { ...rest, settings, ...(typed.length > 0 && { secrets: Object.fromEntries(typed) }) } as T;
}
