import type { AgentProviderConfig } from '@switchboard/agent-config';

// What the demo seed creates, read from the environment. The defaults are the ones documented
// in .env.example and the README, so `npm run demo` works as printed with no configuration.

export const DEMO_DEFAULTS = {
  adminEmail: 'admin@switchboard.local',
  adminPassword: 'switchboard',
  ownerEmail: 'owner@demo-hotel.local',
  apiKey: 'sb_demo_concierge_key_change_me',
} as const;

export const DEMO_TENANT = { name: 'Demo Hotel', slug: 'demo' } as const;
export const DEMO_AGENT_NAME = 'Concierge';
export const DEMO_CHANNEL_NAME = 'Demo channel';
export const DEMO_API_KEY_NAME = 'Demo key';

export interface DemoSettings {
  adminEmail: string;
  adminPassword: string;
  ownerEmail: string;
  apiKey: string;
  /** The real provider to run the Concierge on; undefined keeps its scripted provider. */
  provider?: AgentProviderConfig;
}

export class DemoSettingsError extends Error {
  readonly code = 'invalid-demo-settings';
  constructor(variable: string, why: string) {
    super(`${variable} ${why}. Fix it in .env (see .env.example) and run the seed again.`);
    this.name = 'DemoSettingsError';
  }
}

/** OpenAI wins when both keys are set; the worker reads the key itself from its environment. */
export function demoProvider(env: NodeJS.ProcessEnv): AgentProviderConfig | undefined {
  if (env.OPENAI_API_KEY) return { kind: 'openai', model: 'gpt-4o-mini' };
  if (env.GEMINI_API_KEY) return { kind: 'gemini', model: 'gemini-2.5-flash' };
  return undefined;
}

export function demoSettingsFromEnv(env: NodeJS.ProcessEnv, minPasswordLength: number): DemoSettings {
  const pick = (name: string, fallback: string) => (env[name] ? env[name] : fallback);
  const settings: DemoSettings = {
    adminEmail: pick('DEMO_ADMIN_EMAIL', DEMO_DEFAULTS.adminEmail).toLowerCase(),
    adminPassword: pick('DEMO_ADMIN_PASSWORD', DEMO_DEFAULTS.adminPassword),
    ownerEmail: pick('DEMO_OWNER_EMAIL', DEMO_DEFAULTS.ownerEmail).toLowerCase(),
    apiKey: pick('DEMO_API_KEY', DEMO_DEFAULTS.apiKey),
    provider: demoProvider(env),
  };
  for (const variable of ['DEMO_ADMIN_EMAIL', 'DEMO_OWNER_EMAIL'] as const) {
    const value = variable === 'DEMO_ADMIN_EMAIL' ? settings.adminEmail : settings.ownerEmail;
    if (!/^[^@\s]+@[^@\s]+$/.test(value)) throw new DemoSettingsError(variable, `is not an email address ("${value}")`);
  }
  if (settings.adminEmail === settings.ownerEmail) {
    throw new DemoSettingsError('DEMO_OWNER_EMAIL', 'must differ from DEMO_ADMIN_EMAIL');
  }
  if (settings.adminPassword.length < minPasswordLength) {
    throw new DemoSettingsError('DEMO_ADMIN_PASSWORD', `must have at least ${minPasswordLength} characters`);
  }
  if (settings.apiKey.length < 16 || /\s/.test(settings.apiKey)) {
    throw new DemoSettingsError('DEMO_API_KEY', 'must be at least 16 characters with no spaces');
  }
  return settings;
}
