import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

/** OpenAPI document at /docs-json and its UI at /docs. */
export function setupSwagger(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Switchboard API')
    .setDescription(
      'Channels post customer messages with their API key; errors are `{ "error": { code, message, details? } }` ' +
        '(codes listed in apps/api/README.md).',
    )
    .setVersion('0.1.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'Channel API key (sb_live_...)' })
    .build();
  SwaggerModule.setup('docs', app, () => SwaggerModule.createDocument(app, config), { jsonDocumentUrl: 'docs-json' });
}
