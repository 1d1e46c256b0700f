import { Box, Stack, Typography } from '@mui/material';
import { NumberInput, SelectInput, TextInput, maxValue, minValue, required } from 'react-admin';
import { ChipsInput } from '../../components/ChipsInput';
import { WidgetPreview } from './WidgetPreview';
import { originError, WIDGET_LANGUAGES } from './widget-settings';

const origins = (values: unknown) => {
  const list = Array.isArray(values) ? (values as string[]) : [];
  if (list.length === 0) return 'Add the origin of at least one site (e.g. https://www.example.com)';
  return list.map(originError).find(Boolean);
};
const colour = (v: unknown) => (typeof v === 'string' && !/^#[0-9a-fA-F]{6}$/.test(v) ? 'A colour as #rrggbb' : undefined);
const httpUrl = (v: unknown) => (typeof v === 'string' && v && !/^https?:\/\//i.test(v) ? 'An http(s) URL' : undefined);

/** A "Web widget" channel's settings, beside a live preview of the widget they make. */
export function WidgetSettingsInputs() {
  return (
    <Stack direction={{ xs: 'column', lg: 'row' }} spacing={3} sx={{ width: '100%' }}>
      <Box sx={{ flex: 1, minWidth: 'min(320px, 100%)' }}>
        <Typography variant="subtitle1" gutterBottom>
          Web widget
        </Typography>
        <ChipsInput
          source="settings.allowedOrigins"
          label="Allowed origins"
          placeholder="https://www.example.com, then Enter"
          helperText="Only pages on these exact origins may use the widget (scheme, host and port; * is refused in production)"
          validate={origins}
        />
        <TextInput source="settings.title" label="Title" validate={required()} fullWidth />
        <TextInput source="settings.greeting" label="Greeting" multiline fullWidth helperText="Shown when a visitor opens the chat (optional)" />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0, sm: 2 }}>
          <TextInput source="settings.color" label="Colour" validate={colour} helperText="#rrggbb" />
          <SelectInput source="settings.position" label="Launcher position" choices={[{ id: 'right', name: 'Bottom right' }, { id: 'left', name: 'Bottom left' }]} validate={required()} />
        </Stack>
        <TextInput source="settings.avatarUrl" label="Avatar URL" validate={httpUrl} parse={(v: string) => v || null} fullWidth helperText="A picture beside the agent's name (optional)" />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0, sm: 2 }}>
          <SelectInput source="settings.language" label="Language" choices={WIDGET_LANGUAGES} validate={required()} />
          <NumberInput source="settings.conversationDays" label="Continue conversations for (days)" validate={[required(), minValue(1), maxValue(365)]} />
        </Stack>
      </Box>
      <WidgetPreview />
    </Stack>
  );
}
