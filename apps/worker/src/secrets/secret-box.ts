import { Inject, Injectable } from '@nestjs/common';
import { decryptSecret, parseMasterKey } from '@switchboard/db';
import { WORKER_ENV, type WorkerEnv } from '../config/worker-env';

export { SECRET_CONTEXTS } from '@switchboard/db';

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
