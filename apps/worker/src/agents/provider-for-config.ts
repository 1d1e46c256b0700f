import { Inject, Injectable } from '@nestjs/common';
import { createProvider, type AiProvider } from '@falai/agent';
import { checkProviderEndpoint, type AgentProviderConfig } from '@switchboard/agent-config';
import { PrismaService } from '@switchboard/db';
import { guardedFetch, type FetchLike } from '@switchboard/outbound';
import { WORKER_ENV, type WorkerEnv } from '../config/worker-env';
import { SECRET_CONTEXTS, SecretBox } from '../secrets/secret-box';

export class ProviderCredentialError extends Error {
  readonly code = 'provider-credential-invalid';
  constructor(credentialId: string, why: string) {
    super(`[ProviderCredentialError] provider credential ${credentialId}: ${why}. Pick one of the tenant's credentials for this provider.`);
    this.name = 'ProviderCredentialError';
  }
}

/**
 * Builds the model provider an agent config names. Where the calls go and whose key they carry
 * is checkProviderEndpoint's decision, the same one the API made at publish: the tenant's
 * stored credential when the config names one (decrypted here, never logged); the platform's
 * OPENAI_API_KEY / GEMINI_API_KEY only for the official endpoint; no key at all for an
 * openai-compatible server without a credential. Every request goes through the outbound
 * guard, so a base URL cannot reach loopback, private or metadata addresses unless allowed.
 * `scripted` runs the config's rules.
 */
@Injectable()
export class ProviderForConfig {
  /** One guarded transport (and connection pool) for every provider this worker builds. */
  private readonly transport: FetchLike;

  constructor(
    @Inject(WORKER_ENV) private readonly env: WorkerEnv,
    private readonly prisma: PrismaService,
    private readonly secrets: SecretBox,
  ) {
    this.transport = guardedFetch({ allowedHosts: new Set(env.OUTBOUND_ALLOWED_HOSTS), caller: 'model providers' });
  }

  async build(tenantId: string, config: AgentProviderConfig): Promise<AiProvider> {
    if (config.kind === 'scripted') return createProvider({ provider: 'scripted', model: config.model, scripted: config.scripted });
    const credential = config.credentialId
      ? await this.prisma.providerCredential.findFirst({
          where: { id: config.credentialId, tenantId },
          select: { kind: true, baseURL: true, secretEncrypted: true },
        })
      : null;
    if (config.credentialId && !credential) throw new ProviderCredentialError(config.credentialId, 'no such credential for this tenant');
    const endpoint = await checkProviderEndpoint(config, {
      credential,
      allowedHosts: new Set(this.env.OUTBOUND_ALLOWED_HOSTS),
      // The guarded transport checks the address of every connection; no lookup ahead of it.
      resolveNames: false,
    });
    const apiKey =
      endpoint.key === 'tenant'
        ? this.secrets.decrypt(credential!.secretEncrypted, SECRET_CONTEXTS.providerCredential(tenantId))
        : endpoint.key === 'platform'
          ? config.kind === 'gemini'
            ? this.env.GEMINI_API_KEY
            : this.env.OPENAI_API_KEY
          : undefined;
    return createProvider({
      provider: config.kind,
      model: config.model,
      fetch: this.transport,
      ...(endpoint.baseURL !== undefined && { baseURL: endpoint.baseURL }),
      ...(apiKey !== undefined && { credentials: { apiKey } }),
    });
  }
}
