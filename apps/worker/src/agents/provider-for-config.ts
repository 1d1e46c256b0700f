import { Inject, Injectable } from '@nestjs/common';
import { createProvider, type AiProvider } from '@falai/agent';
import type { AgentProviderConfig } from '@switchboard/agent-config';
import { PrismaService } from '@switchboard/db';
import { WORKER_ENV, type WorkerEnv } from '../config/worker-env';
import { SECRET_CONTEXTS, SecretBox } from '../secrets/secret-box';

export class ProviderCredentialError extends Error {
  readonly code = 'provider-credential-invalid';
  constructor(credentialId: string, why: string) {
    super(`[ProviderCredentialError] provider credential ${credentialId}: ${why}. Pick one of the tenant's credentials for this provider.`);
    this.name = 'ProviderCredentialError';
  }
}

/** The stored kind of a credential (Prisma enum) for each provider kind of a config. */
const CREDENTIAL_KIND = { openai: 'openai', gemini: 'gemini', 'openai-compatible': 'openai_compatible' } as const;

/**
 * Builds the model provider an agent config names. The key comes from the tenant's stored
 * credential when the config names one (decrypted here, never logged); otherwise, for `openai`
 * and `gemini`, from the platform's OPENAI_API_KEY / GEMINI_API_KEY. An openai-compatible server
 * belongs to a tenant, so it never gets the platform's key. `scripted` runs the config's rules.
 */
@Injectable()
export class ProviderForConfig {
  constructor(
    @Inject(WORKER_ENV) private readonly env: WorkerEnv,
    private readonly prisma: PrismaService,
    private readonly secrets: SecretBox,
  ) {}

  async build(tenantId: string, config: AgentProviderConfig): Promise<AiProvider> {
    if (config.kind === 'scripted') return createProvider({ provider: 'scripted', model: config.model, scripted: config.scripted });
    let apiKey = config.kind === 'gemini' ? this.env.GEMINI_API_KEY : config.kind === 'openai' ? this.env.OPENAI_API_KEY : undefined;
    let baseURL = config.baseURL;
    if (config.credentialId) {
      const credential = await this.prisma.providerCredential.findFirst({
        where: { id: config.credentialId, tenantId },
        select: { kind: true, baseURL: true, secretEncrypted: true },
      });
      if (!credential) throw new ProviderCredentialError(config.credentialId, 'no such credential for this tenant');
      if (credential.kind !== CREDENTIAL_KIND[config.kind]) {
        throw new ProviderCredentialError(config.credentialId, `it is a ${credential.kind} key, the agent uses ${config.kind}`);
      }
      apiKey = this.secrets.decrypt(credential.secretEncrypted, SECRET_CONTEXTS.providerCredential(tenantId));
      baseURL = baseURL ?? credential.baseURL ?? undefined;
    }
    return createProvider({
      provider: config.kind,
      model: config.model,
      ...(baseURL !== undefined && { baseURL }),
      ...(apiKey !== undefined && { credentials: { apiKey } }),
    });
  }
}
