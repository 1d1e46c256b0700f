import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { webhooksOpenApi } from '@switchboard/webhooks';

/**
 * OpenAPI document at /docs-json and its UI at /docs. OpenAPI 3.1 for its `webhooks` section:
 * every event a channel's webhook receives, generated from the zod schemas the worker builds the
 * payloads with (libs/webhooks).
 */
export function setupSwagger(app: INestApplication): void {
  const { webhooks, schemas } = webhooksOpenApi();
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Switchboard API')
    .setDescription(
      'Channels post customer messages with their API key; errors are `{ "error": { code, message, details? } }` ' +
        '(codes listed in apps/api/README.md). Replies and other events reach a channel\'s webhook URL as the `webhooks` ' +
        'below, signed the Standard Webhooks way (docs/webhooks.md).',
    )
    .setVersion('0.1.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'Channel API key (sb_live_...)' })
    .addTag('webhooks', 'Events POSTed to a channel\'s webhook URL (`webhook-id`, `webhook-timestamp`, `webhook-signature` headers)')
    .build();
  // libs/webhooks builds plain OpenAPI JSON without depending on @nestjs/swagger's types.
  const document: Omit<OpenAPIObject, 'paths'> = {
    ...config,
    webhooks: webhooks as unknown as OpenAPIObject['webhooks'],
    components: { ...config.components, schemas: { ...config.components?.schemas, ...schemas } },
  };
  SwaggerModule.setup('docs', app, () => SwaggerModule.createDocument(app, document), { jsonDocumentUrl: 'docs-json' });
}
