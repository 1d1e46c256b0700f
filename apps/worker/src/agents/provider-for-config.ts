import { Inject, Injectable } from '@nestjs/common';
import type { AiProvider } from '@falai/agent';
import { buildProvider, type AgentLoadPorts, type AgentProviderConfig } from '@switchboard/agent-config';
import { PrismaService } from '@switchboard/db';
import { guardedFetch, type FetchLike } from '@switchboard/outbound';
import { WORKER_ENV, type WorkerEnv } from '../config/worker-env';
import { SECRET_CONTEXTS, SecretBox } from '../secrets/secret-box';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Builds the model provider an agent config names, through the shared loader's buildProvider
 * (libs/agent-config load-agent.ts, which publish runs too). Where the calls go and whose key they
 * carry is checkProviderEndpoint's decision, made there: the tenant's stored credential when the
 * config names one (it must exist and decrypt; never logged); the platform's OPENAI_API_KEY /
 * GEMINI_API_KEY only for the official endpoint; no key for an openai-compatible server without a
 * credential. Every request goes through the outbound guard, so a base URL cannot reach loopback,
 * private or metadata addresses unless allowed.
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

  build(tenantId: string, config: AgentProviderConfig): Promise<AiProvider> {
    return buildProvider(config, this.ports(tenantId));
  }

  /** Where the loader finds a tenant's credentials, the platform's keys and the transport, in this process. */
  ports(tenantId: string): Pick<AgentLoadPorts, 'credential' | 'decrypt' | 'platformKeys' | 'endpoint'> {
    return {
      credential: async (id) =>
        UUID.test(id) ? this.prisma.providerCredential.findFirst({ where: { id, tenantId }, select: { kind: true, baseURL: true, secretEncrypted: true } }) : null,
      decrypt: (stored) => this.secrets.decrypt(stored, SECRET_CONTEXTS.providerCredential(tenantId)),
      platformKeys: { openai: this.env.OPENAI_API_KEY, gemini: this.env.GEMINI_API_KEY },
      // The guarded transport checks the address of every connection; no lookup ahead of it.
      endpoint: { allowedHosts: new Set(this.env.OUTBOUND_ALLOWED_HOSTS), resolveNames: false, fetch: this.transport },
    };
  }
}
