import { Inject, Injectable } from '@nestjs/common';
import type { AiProvider } from '@falai/agent';
import { buildProvider, type AgentLoadPorts, type AgentProviderConfig } from '@switchboard/agent-config';
import { PrismaService } from '@switchboard/db';
import { WORKER_ENV, type WorkerEnv } from '../config/worker-env';
import { SECRET_CONTEXTS, SecretBox } from '../secrets/secret-box';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Builds the model provider an agent config names, with the checks of the shared loader
 * (libs/agent-config load-agent.ts, which publish runs too): the tenant's credential when the
 * config names one (it must exist, be of the provider's kind and decrypt; never logged),
 * otherwise for `openai` and `gemini` the platform's OPENAI_API_KEY / GEMINI_API_KEY. An
 * openai-compatible server belongs to a tenant, so it never gets the platform's key.
 */
@Injectable()
export class ProviderForConfig {
  constructor(
    @Inject(WORKER_ENV) private readonly env: WorkerEnv,
    private readonly prisma: PrismaService,
    private readonly secrets: SecretBox,
  ) {}

  build(tenantId: string, config: AgentProviderConfig): Promise<AiProvider> {
    return buildProvider(config, this.ports(tenantId));
  }

  /** Where the loader finds a tenant's credentials and the platform's keys, in this process. */
  ports(tenantId: string): Pick<AgentLoadPorts, 'credential' | 'decrypt' | 'platformKeys'> {
    return {
      credential: async (id) =>
        UUID.test(id) ? this.prisma.providerCredential.findFirst({ where: { id, tenantId }, select: { kind: true, baseURL: true, secretEncrypted: true } }) : null,
      decrypt: (stored) => this.secrets.decrypt(stored, SECRET_CONTEXTS.providerCredential(tenantId)),
      platformKeys: { openai: this.env.OPENAI_API_KEY, gemini: this.env.GEMINI_API_KEY },
    };
  }
}
