import { z } from 'zod';
import {
  handedBackEvent,
  handedOffEvent,
  messageFallbackEvent,
  messageReplyEvent,
  replyEvent,
  sessionHandedBackEvent,
  sessionHandedOffEvent,
  testEvent,
  webhookTestEvent,
  type WebhookEvent,
  type WebhookEventType,
} from './webhook-events';
import { WEBHOOK_TIMEOUT_MS } from './webhook-limits';

// The OpenAPI 3.1 `webhooks` section, generated from the zod schemas the worker builds payloads
// with. Examples are built by the same builders, so they are valid payloads by construction.

interface WebhookDoc {
  type: WebhookEventType;
  /** The component schema's name. */
  name: string;
  schema: z.ZodType;
  summary: string;
  example: WebhookEvent;
}

const SAMPLE = {
  deliveryId: '0b9a4c62-5d1e-4f7a-9c3b-2e8f6a1d4b70',
  channelId: '5f2d8e41-7c3a-4b9e-8d6f-1a2b3c4d5e6f',
  sessionId: '8c1e2f3a-4b5c-4d6e-9f70-81a2b3c4d5e6',
  session: 'whatsapp:+5541999990000',
  messageId: 'c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f',
  at: new Date('2026-12-03T16:00:00.000Z'),
};

export const WEBHOOK_DOCS: readonly WebhookDoc[] = [
  {
    type: 'message.reply',
    name: 'MessageReplyEvent',
    schema: messageReplyEvent,
    summary: 'A reply of the agent',
    example: replyEvent({ ...SAMPLE, text: 'A diária em Curitiba sai por R$ 420. Posso reservar?', kind: 'ai', createdAt: SAMPLE.at, visibleAt: null }),
  },
  {
    type: 'message.fallback',
    name: 'MessageFallbackEvent',
    schema: messageFallbackEvent,
    summary: "The agent's fallback message after a failed turn",
    example: replyEvent({ ...SAMPLE, text: 'Desculpe, tive um problema agora. Já vou te responder.', kind: 'fallback', createdAt: SAMPLE.at, visibleAt: null }),
  },
  {
    type: 'session.handed_off',
    name: 'SessionHandedOffEvent',
    schema: sessionHandedOffEvent,
    summary: 'The conversation went to a person',
    example: handedOffEvent(SAMPLE, 'The customer asked for a person.'),
  },
  {
    type: 'session.handed_back',
    name: 'SessionHandedBackEvent',
    schema: sessionHandedBackEvent,
    summary: 'The conversation came back to the agent',
    example: handedBackEvent(SAMPLE),
  },
  {
    type: 'webhook.test',
    name: 'WebhookTestEvent',
    schema: webhookTestEvent,
    summary: 'A test delivery',
    example: testEvent({ deliveryId: SAMPLE.deliveryId, channelId: SAMPLE.channelId, at: SAMPLE.at }),
  },
];

const SIGNATURE_HEADERS = [
  {
    name: 'webhook-id',
    description: 'The delivery id (= `deliveryId`), the same on every retry: the idempotency key.',
    example: SAMPLE.deliveryId,
  },
  {
    name: 'webhook-timestamp',
    description: 'When this attempt was signed, in seconds since the epoch. Refuse attempts more than 5 minutes from your clock.',
    example: String(SAMPLE.at.getTime() / 1000),
  },
  {
    name: 'webhook-signature',
    description:
      '`v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, space-separated when several secrets are valid (during a rotation). Verify with a Standard Webhooks library (docs/webhooks.md).',
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
] as const;

/** JSON Schema 2020-12 (OpenAPI 3.1's dialect) of a payload: open to added fields, formats without their regexes. */
export function payloadJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
    // "input": what a payload may hold, without `additionalProperties: false` (fields may be added).
    io: 'input',
    override: (ctx) => {
      const node = ctx.jsonSchema as { format?: string; pattern?: string };
      if (node.format && node.pattern) delete node.pattern;
    },
  }) as Record<string, unknown>;
  return json;
}

export interface WebhooksOpenApi {
  webhooks: Record<string, { post: Record<string, unknown> }>;
  schemas: Record<string, Record<string, unknown>>;
}

/** The `webhooks` section and the component schemas it refers to. */
export function webhooksOpenApi(): WebhooksOpenApi {
  const webhooks: WebhooksOpenApi['webhooks'] = {};
  const schemas: WebhooksOpenApi['schemas'] = {};
  for (const doc of WEBHOOK_DOCS) {
    const schema = payloadJsonSchema(doc.schema);
    schemas[doc.name] = schema;
    webhooks[doc.type] = {
      post: {
        operationId: `webhook_${doc.type.replace(/\./g, '_')}`,
        summary: doc.summary,
        description: `${String(schema.description)}\n\nPOSTed to the channel's webhook URL, signed the Standard Webhooks way (docs/webhooks.md).`,
        tags: ['webhooks'],
        parameters: SIGNATURE_HEADERS.map((h) => ({ in: 'header', name: h.name, required: true, description: h.description, schema: { type: 'string' }, example: h.example })),
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${doc.name}` }, example: doc.example } },
        },
        responses: {
          '2XX': {
            description: `Received. Any other answer, or none within ${WEBHOOK_TIMEOUT_MS / 1000} seconds, is retried with backoff (the same \`webhook-id\`).`,
          },
        },
      },
    };
  }
  return { webhooks, schemas };
}
