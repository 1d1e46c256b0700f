import { useState } from 'react';
import { Create, SimpleForm, useRedirect } from 'react-admin';
import { OneTimeSecretDialog } from '../components/OneTimeSecretDialog';
import { ChannelInputs } from './ChannelInputs';
import { TenantInput } from '../components/TenantInput';

/** Creates a channel, shows its webhook signing secret once, then opens it to add API keys. */
export function ChannelCreate() {
  const redirect = useRedirect();
  const [created, setCreated] = useState<{ id: string; webhookSecret: string } | null>(null);
  return (
    <>
      <Create mutationOptions={{ onSuccess: (data: { id: string; webhookSecret: string }) => setCreated(data) }}>
        <SimpleForm>
          <TenantInput />
          <ChannelInputs />
        </SimpleForm>
      </Create>
      <OneTimeSecretDialog
        title="Webhook signing secret"
        secret={created?.webhookSecret ?? null}
        explanation="Outbound webhooks of this channel are signed with this secret, the Standard Webhooks way: verify them with a Standard Webhooks library (docs/webhooks.md)."
        onClose={() => {
          const id = created?.id;
          setCreated(null);
          if (id) redirect('edit', 'channels', id);
        }}
      />
    </>
  );
}
