import { z } from 'zod';

// What a tenant sets on a "Web widget" channel (Channel.settings of kind `widget`): who may
// embed it and how it looks. Read by the widget's routes and sent to the visitor's browser, so
// nothing here is secret. docs/widget.md describes each setting.

/** Languages are BCP 47 tags the widget has a file for; `auto` follows the visitor's browser. */
const LANGUAGE = /^(auto|[a-z]{2,3}(-[A-Z][a-zA-Z]{1,3})?)$/;
const COLOUR = /^#[0-9a-fA-F]{6}$/;
export const MAX_ALLOWED_ORIGINS = 20;

/** An exact web origin (`https://shop.example`, `http://localhost:8080`): no path, no wildcard. */
export const webOrigin = z
  .string()
  .trim()
  .max(300)
  .refine((value) => value === '*' || exactOrigin(value), {
    message: 'must be an exact origin such as https://www.example.com (scheme, host and port only, no path or trailing slash)',
  });

function exactOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}

export const widgetSettingsSchema = z.strictObject({
  /** Pages allowed to embed the widget (checked on every widget request by its Origin). */
  allowedOrigins: z.array(webOrigin).min(1, 'add the origin of at least one site').max(MAX_ALLOWED_ORIGINS),
  title: z.string().trim().min(1).max(80).default('Chat'),
  greeting: z.string().trim().max(500).default(''),
  /** Launcher and header colour. */
  color: z.string().regex(COLOUR, 'must be a #rrggbb colour').default('#2563eb'),
  position: z.enum(['right', 'left']).default('right'),
  /** Picture shown beside the agent's messages; an http(s) URL the visitors' browsers load. */
  avatarUrl: z
    .string()
    .trim()
    .max(2000)
    .url()
    .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL')
    .nullable()
    .default(null),
  language: z.string().regex(LANGUAGE, 'must be "auto" or a language tag such as en or pt-BR').default('auto'),
  /** A visitor who comes back within this many days continues the same conversation. */
  conversationDays: z.number().int().min(1).max(365).default(30),
});

export type WidgetSettings = z.output<typeof widgetSettingsSchema>;

/** Where a stored settings object breaks a rule of the environment (zod cannot know NODE_ENV). */
export function widgetSettingsIssues(settings: WidgetSettings, nodeEnv: string): { path: string; message: string }[] {
  if (nodeEnv !== 'production') return [];
  return settings.allowedOrigins.flatMap((origin, i) =>
    origin === '*' ? [{ path: `allowedOrigins.${i}`, message: '"*" (any site) is refused in production: list the exact origins of your sites' }] : [],
  );
}

/** The stored settings of a widget channel; a row written before a setting existed gets its default. */
export function readWidgetSettings(stored: unknown): WidgetSettings | null {
  const parsed = widgetSettingsSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

/** Whether a page on `origin` may use the widget. */
export function originAllowed(settings: Pick<WidgetSettings, 'allowedOrigins'>, origin: string | undefined): boolean {
  if (!origin) return false;
  return settings.allowedOrigins.some((allowed) => allowed === '*' || allowed === origin);
}
