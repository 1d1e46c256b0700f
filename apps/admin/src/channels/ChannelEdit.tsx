import { Divider, Stack, Typography } from '@mui/material';
import { Edit, SimpleForm, useRecordContext } from 'react-admin';
import { ApiKeysPanel } from './ApiKeysPanel';
import { ChannelInputs } from './ChannelInputs';
import { RotateSecretButton } from './RotateSecretButton';
import { TestDelivery } from './TestDelivery';
import { WidgetSettingsInputs } from './widget/WidgetSettingsInputs';
import { WidgetSnippet } from './widget/WidgetSnippet';
import { PlatformInputs } from './platforms/PlatformInputs';
import { PLATFORM_KIND_IDS, platformBody } from './platforms/platform-kinds';

function PlatformEditInputs() {
  const record = useRecordContext<{ kind?: string }>();
  return record?.kind && PLATFORM_KIND_IDS.has(record.kind) ? <PlatformInputs kind={record.kind} editing /> : null;
}

/** A platform channel sends its own settings and only the credentials typed in. */
const transform = (data: { kind?: string; settings?: Record<string, unknown>; secrets?: Record<string, unknown> }) =>
  PLATFORM_KIND_IDS.has(data.kind ?? '') ? platformBody(data) : data;

function WidgetInputs() {
  const record = useRecordContext<{ kind?: string }>();
  return record?.kind === 'widget' ? (
    <>
      <WidgetSnippet />
      <WidgetSettingsInputs />
    </>
  ) : null;
}

function ChannelExtras() {
  const record = useRecordContext<{ id: string; kind?: string; webhookSecretPreviousExpiresAt: string | null }>();
  if (!record) return null;
  // A platform channel's replies go to the platform: no webhook secret, test delivery or API keys.
  if (record.kind && PLATFORM_KIND_IDS.has(record.kind)) return null;
  return (
    <Stack spacing={2} sx={{ width: '100%', mt: 2 }}>
      <Stack direction="row" spacing={2} alignItems="center" useFlexGap flexWrap="wrap">
        <RotateSecretButton channelId={record.id} />
        {record.webhookSecretPreviousExpiresAt && (
          <Typography variant="body2" color="text.secondary" data-testid="previous-secret">
            The previous secret also signs deliveries until {new Date(record.webhookSecretPreviousExpiresAt).toLocaleString()}.
          </Typography>
        )}
      </Stack>
      <Divider />
      <TestDelivery />
      <Divider />
      <ApiKeysPanel channelId={record.id} />
    </Stack>
  );
}

export function ChannelEdit() {
  return (
    <Edit redirect={false} mutationMode="pessimistic" transform={transform}>
      <SimpleForm>
        <ChannelInputs />
        <WidgetInputs />
        <PlatformEditInputs />
        <ChannelExtras />
      </SimpleForm>
    </Edit>
  );
}
