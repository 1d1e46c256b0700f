import { useState } from 'react';
import { Create, FormDataConsumer, SelectInput, SimpleForm, useRedirect } from 'react-admin';
import { OneTimeSecretDialog } from '../components/OneTimeSecretDialog';
import { ChannelInputs } from './ChannelInputs';
import { TenantInput } from '../components/TenantInput';
import { DEFAULT_WIDGET_SETTINGS } from './widget/widget-settings';
import { WidgetSettingsInputs } from './widget/WidgetSettingsInputs';

const KINDS = [
  { id: 'api', name: 'API (channel keys)' },
  { id: 'widget', name: 'Web widget' },
];

/** Only a widget sends settings. */
const transform = ({ settings, ...data }: { kind?: string; settings?: unknown }) => (data.kind === 'widget' ? { ...data, settings } : data);

/** Creates a channel, shows its webhook signing secret once, then opens it to add API keys. */
export function ChannelCreate() {
  const redirect = useRedirect();
  const [created, setCreated] = useState<{ id: string; webhookSecret: string } | null>(null);
  return (
    <>
      <Create transform={transform} mutationOptions={{ onSuccess: (data: { id: string; webhookSecret: string }) => setCreated(data) }}>
        <SimpleForm defaultValues={{ kind: 'api', settings: DEFAULT_WIDGET_SETTINGS }}>
          <TenantInput />
          <SelectInput source="kind" label="Kind" choices={KINDS} />
          <ChannelInputs />
          <FormDataConsumer>{({ formData }) => (formData.kind === 'widget' ? <WidgetSettingsInputs /> : null)}</FormDataConsumer>
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
