import { Divider, Stack, Typography } from '@mui/material';
import { Edit, SimpleForm, useRecordContext } from 'react-admin';
import { ApiKeysPanel } from './ApiKeysPanel';
import { ChannelInputs } from './ChannelInputs';
import { RotateSecretButton } from './RotateSecretButton';
import { TestDelivery } from './TestDelivery';
import { WidgetSettingsInputs } from './widget/WidgetSettingsInputs';
import { WidgetSnippet } from './widget/WidgetSnippet';

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
  const record = useRecordContext<{ id: string; webhookSecretPreviousExpiresAt: string | null }>();
  if (!record) return null;
  return (
    <Stack spacing={2} sx={{ width: '100%', mt: 2 }}>
      <Stack direction="row" spacing={2} alignItems="center">
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
    <Edit redirect={false} mutationMode="pessimistic">
      <SimpleForm>
        <ChannelInputs />
        <WidgetInputs />
        <ChannelExtras />
      </SimpleForm>
    </Edit>
  );
}
