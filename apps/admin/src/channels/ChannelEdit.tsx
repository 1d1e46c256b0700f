import { Divider, Stack } from '@mui/material';
import { Edit, SimpleForm, useRecordContext } from 'react-admin';
import { ApiKeysPanel } from './ApiKeysPanel';
import { ChannelInputs } from './ChannelInputs';
import { RotateSecretButton } from './RotateSecretButton';

function ChannelExtras() {
  const record = useRecordContext<{ id: string }>();
  if (!record) return null;
  return (
    <Stack spacing={2} sx={{ width: '100%', mt: 2 }}>
      <RotateSecretButton channelId={record.id} />
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
        <ChannelExtras />
      </SimpleForm>
    </Edit>
  );
}
