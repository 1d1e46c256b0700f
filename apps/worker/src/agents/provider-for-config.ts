import { Inject, Injectable } from '@nestjs/common';
import { createProvider, type AiProvider } from '@falai/agent';
import type { AgentProviderConfig } from '@switchboard/agent-config';
import { WORKER_ENV, type WorkerEnv } from '../config/worker-env';

/**
 * Builds the model provider an agent config names. Keys come from the worker's environment at
 * this stage (OPENAI_API_KEY, GEMINI_API_KEY); per-tenant stored credentials replace them later.
 * `scripted` runs the config's own rules, offline.
 */
@Injectable()
export class ProviderForConfig {
  constructor(@Inject(WORKER_ENV) private readonly env: WorkerEnv) {}

  build(config: AgentProviderConfig): AiProvider {
    // openai-compatible servers belong to tenants: never send them the platform's OpenAI key.
    const apiKey =
      config.kind === 'gemini' ? this.env.GEMINI_API_KEY : config.kind === 'openai' ? this.env.OPENAI_API_KEY : undefined;
    return createProvider({
      provider: config.kind,
      model: config.model,
      ...(config.baseURL !== undefined && { baseURL: config.baseURL }),
      ...(apiKey !== undefined && { credentials: { apiKey } }),
      ...(config.kind === 'scripted' && { scripted: config.scripted }),
    });
  }
}
