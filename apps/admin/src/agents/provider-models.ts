import type { ProviderKind } from './agent-config';

/**
 * Each provider's default model (set when the provider is switched, so an OpenAI model name
 * never stays on a Gemini agent) and the models the console offers for it. A suggestion list,
 * not a limit: any model id the provider serves can be typed. An OpenAI-compatible server's
 * models are its own, so it has no default; the scripted model takes any name.
 */
export const PROVIDER_MODELS: Record<ProviderKind, { default: string; known: readonly string[] }> = {
  openai: { default: 'gpt-4.1-mini', known: ['gpt-4.1-mini', 'gpt-4.1', 'gpt-4.1-nano', 'gpt-4o-mini', 'gpt-4o'] },
  gemini: { default: 'gemini-2.5-flash', known: ['gemini-2.5-flash', 'gemini-2.5-pro', 'gemini-2.5-flash-lite'] },
  'openai-compatible': { default: '', known: [] },
  scripted: { default: 'scripted', known: [] },
};

/** The model a draft gets when its provider is switched to `kind`. */
export const defaultModelOf = (kind: ProviderKind): string => PROVIDER_MODELS[kind]?.default ?? '';
