import { useState } from 'react';
import { Create, FormDataConsumer, SelectInput, SimpleForm, useRedirect } from 'react-admin';
import { OneTimeSecretDialog } from '../components/OneTimeSecretDialog';
import { ChannelInputs } from './ChannelInputs';
import { TenantInput } from '../components/TenantInput';
import { DEFAULT_WIDGET_SETTINGS } from './widget/widget-settings';
import { WidgetSettingsInputs } from './widget/WidgetSettingsInputs';
import { PlatformInputs } from './platforms/PlatformInputs';
import { PlatformSetupDialog, type PlatformSetup } from './platforms/PlatformSetupDialog';
import { PLATFORM_KIND_IDS, PLATFORM_KINDS, platformBody } from './platforms/platform-kinds';

const KINDS = [
  { id: 'api', name: 'API (channel keys)' },
  { id: 'widget', name: 'Web widget' },
  ...PLATFORM_KINDS.map((k) => ({ id: k.id, name: k.name })),
];

/** A widget sends its settings; a platform its settings and credentials; the API kind neither. */
const transform = ({ settings, secrets, ...data }: { kind?: string; settings?: Record<string, unknown>; secrets?: Record<string, unknown> }) => {
  if (data.kind === 'widget') return { ...data, settings };
  if (PLATFORM_KIND_IDS.has(data.kind ?? '')) return platformBody({ ...data, settings, secrets, webhookUrl: undefined });
  return data;
};

interface Created {
  id: string;
  webhookSecret: string;
  platform?: PlatformSetup;
}

/** Creates a channel, shows its webhook signing secret once, then opens it to add API keys. */
export function ChannelCreate() {
  const redirect = useRedirect();
  const [created, setCreated] = useState<Created | null>(null);
  const close = () => {
    const id = created?.id;
    setCreated(null);
    if (id) redirect('edit', 'channels', id);
  };
  return (
    <>
      <Create transform={transform} mutationOptions={{ onSuccess: (data: Created) => setCreated(data) }}>
        <SimpleForm defaultValues={{ kind: 'api', settings: DEFAULT_WIDGET_SETTINGS }}>
          <TenantInput />
          <SelectInput source="kind" label="Kind" choices={KINDS} />
          <ChannelInputs />
          <FormDataConsumer>
            {({ formData }) =>
              formData.kind === 'widget' ? <WidgetSettingsInputs /> : PLATFORM_KIND_IDS.has(formData.kind) ? <PlatformInputs kind={formData.kind} editing={false} /> : null
            }
          </FormDataConsumer>
        </SimpleForm>
      </Create>
      <OneTimeSecretDialog
        title="Webhook signing secret"
        secret={created && !created.platform ? created.webhookSecret : null}
        explanation="Outbound webhooks of this channel are signed with this secret, the Standard Webhooks way: verify them with a Standard Webhooks library (docs/webhooks.md)."
        onClose={close}
      />
      <PlatformSetupDialog setup={created?.platform ?? null} onClose={close} />
    </>
  );
}
