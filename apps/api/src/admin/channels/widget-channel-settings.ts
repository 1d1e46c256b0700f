import { issuesToDetails } from '../../common/validation/zod-validation.pipe';
import { ValidationFailedError } from '../../common/errors';
import { widgetSettingsIssues, widgetSettingsSchema, type WidgetSettings } from '../../widget/widget-settings';

/**
 * The settings of a "Web widget" channel as sent by the console, checked: the schema (400
 * `validation-failed` at `settings.<path>`), then what only the environment knows ("*" among the
 * allowed origins is refused in production).
 */
export function parseWidgetChannelSettings(input: unknown, nodeEnv: string): WidgetSettings {
  const parsed = widgetSettingsSchema.safeParse(input ?? {});
  const details = parsed.success
    ? widgetSettingsIssues(parsed.data, nodeEnv).map((i) => ({ location: 'body' as const, path: `settings.${i.path}`, issue: 'custom', message: i.message }))
    : issuesToDetails(parsed.error.issues, 'body').map((d) => ({ ...d, path: d.path ? `settings.${d.path}` : 'settings' }));
  if (!parsed.success || details.length > 0) {
    throw new ValidationFailedError(`Invalid widget settings: ${[...new Set(details.map((d) => d.path))].join(', ')}. See error.details.`, details);
  }
  return parsed.data;
}
