import { Inject, Injectable } from '@nestjs/common';
import type { Env } from '@switchboard/config';
import { decryptSecret, encryptSecret, parseMasterKey } from '@switchboard/db';
import { ENV } from '../../config/env.module';

/**
 * Encrypts secrets at rest under MASTER_KEY (AES-256-GCM, libs/db secrets.ts). The context binds
 * a ciphertext to what it belongs to (see SECRET_CONTEXTS), so one copied elsewhere does not decrypt.
 */
@Injectable()
export class SecretBox {
  private readonly key: Buffer;

  constructor(@Inject(ENV) env: Env) {
    this.key = parseMasterKey(env.MASTER_KEY);
  }

  encrypt(plaintext: string, context: string): string {
    return encryptSecret(plaintext, this.key, context);
  }

  decrypt(stored: string, context: string): string {
    return decryptSecret(stored, this.key, context);
  }
}

export { SECRET_CONTEXTS } from '@switchboard/db';
