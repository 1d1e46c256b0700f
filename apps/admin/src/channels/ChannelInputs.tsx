import { FormDataConsumer, ReferenceInput, required, SelectInput, TextInput } from 'react-admin';
import { PLATFORM_KIND_IDS } from './platforms/platform-kinds';

const httpUrl = (v: unknown) => (typeof v === 'string' && v && !/^https?:\/\//i.test(v) ? 'An http(s) URL' : undefined);

export function ChannelInputs() {
  return (
    <>
      <TextInput source="name" validate={required()} />
      <ReferenceInput source="agentId" reference="agents">
        <SelectInput optionText="name" validate={required()} label="Agent" />
      </ReferenceInput>
      <FormDataConsumer>
        {({ formData }) =>
          // A platform channel's replies go to the platform, not to a webhook.
          PLATFORM_KIND_IDS.has(formData.kind) ? null : (
            <TextInput source="webhookUrl" label="Webhook URL" validate={httpUrl} helperText="Replies and other events are posted here, signed the Standard Webhooks way with the channel's secret (optional)" parse={(v: string) => v || null} />
          )
        }
      </FormDataConsumer>
    </>
  );
}
