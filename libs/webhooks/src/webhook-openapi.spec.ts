import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { z } from 'zod';
import { messageFallbackEvent, messageReplyEvent, sessionHandedBackEvent, sessionHandedOffEvent, webhookTestEvent } from './webhook-events';
import { payloadJsonSchema, WEBHOOK_DOCS, webhooksOpenApi } from './webhook-openapi';

describe('the OpenAPI webhooks section', () => {
  const { webhooks, schemas } = webhooksOpenApi();

  it('documents every event type, each with the signature headers and a schema reference', () => {
    expect(Object.keys(webhooks)).toEqual(['message.reply', 'message.fallback', 'session.handed_off', 'session.handed_back', 'webhook.test']);
    for (const [type, { post }] of Object.entries(webhooks)) {
      expect((post.parameters as { name: string; in: string }[]).map((p) => `${p.in}:${p.name}`)).toEqual(['header:webhook-id', 'header:webhook-timestamp', 'header:webhook-signature']);
      const content = (post.requestBody as { content: Record<string, { schema: { $ref: string } }> }).content['application/json'];
      const name = content.schema.$ref.replace('#/components/schemas/', '');
      expect([type, (schemas[name].properties as { type: { const: string } }).type.const]).toEqual([type, type]);
    }
  });

  it('generates each schema from the zod schema the payload is built with', () => {
    const zodOf: Record<string, z.ZodType> = {
      MessageReplyEvent: messageReplyEvent,
      MessageFallbackEvent: messageFallbackEvent,
      SessionHandedOffEvent: sessionHandedOffEvent,
      SessionHandedBackEvent: sessionHandedBackEvent,
      WebhookTestEvent: webhookTestEvent,
    };
    expect(Object.keys(schemas).sort()).toEqual(Object.keys(zodOf).sort());
    for (const [name, schema] of Object.entries(zodOf)) expect(schemas[name]).toEqual(payloadJsonSchema(schema));
    expect(schemas.MessageReplyEvent).toMatchObject({ type: 'object', required: expect.arrayContaining(['type', 'version', 'timestamp', 'deliveryId', 'text']) });
    // Receivers must accept added fields: the schemas do not forbid them.
    expect(schemas.MessageReplyEvent).not.toHaveProperty('additionalProperties');
  });

  it('has examples that are valid against their JSON Schema (Draft 2020-12, the dialect of OpenAPI 3.1)', () => {
    const ajv = addFormats(new Ajv2020({ strict: false }));
    for (const doc of WEBHOOK_DOCS) {
      const validate = ajv.compile(schemas[doc.name]);
      expect([doc.type, validate(doc.example), validate.errors ?? null]).toEqual([doc.type, true, null]);
      const example = (webhooks[doc.type].post.requestBody as { content: Record<string, { example: unknown }> }).content['application/json'].example;
      expect(example).toEqual(doc.example);
      expect(validate({ ...doc.example, version: 2 })).toBe(false);
    }
  });
});
