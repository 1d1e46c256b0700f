import { Inject, Injectable } from '@nestjs/common';
import { decryptSecret, parseMasterKey } from '@switchboard/db';
import { WORKER_ENV, type WorkerEnv } from '../config/worker-env';

/**
 * The AAD contexts secrets are sealed under (the API seals them, the worker opens them). They
 * must match the API's SECRET_CONTEXTS exactly; apps cannot import each other, so they are
 * repeated here (moving them into libs/db would keep one copy).
 */
export const SECRET_CONTEXTS = {
  providerCredential: (tenantId: string) => `provider-credential:${tenantId}`,
  httpToolHeaders: (tenantId: string) => `http-tool-headers:${tenantId}`,
} as const;

/** Opens secrets stored encrypted at rest (AES-256-GCM under MASTER_KEY). Decrypted values are never logged. */
@Injectable()
export class SecretBox {
  private readonly key: Buffer;

  constructor(@Inject(WORKER_ENV) env: WorkerEnv) {
    this.key = parseMasterKey(env.MASTER_KEY);
  }

  decrypt(stored: string, context: string): string {
    return decryptSecret(stored, this.key, context);
  }
}
