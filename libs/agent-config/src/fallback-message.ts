import type { AgentConfig } from './agent-config';

// Every agent has a fallback message (issue #17): what the customer gets when a turn ends with
// nothing said because of a failure. New agents get a default at creation, editable; agents
// stored before there was one get the same default when they are loaded. Its language is the
// agent's, when its own texts show one; a few common words are enough to tell the languages the
// platform's agents are written in apart, and anything else gets English.

export type FallbackLanguage = 'pt' | 'es' | 'en';

export const DEFAULT_FALLBACK_MESSAGES: Record<FallbackLanguage, string> = {
  pt: 'Desculpe, não consigo responder agora. Tente novamente em alguns minutos.',
  es: 'Lo siento, no puedo responder ahora. Inténtalo de nuevo en unos minutos.',
  en: 'Sorry, I can’t answer right now. Please try again in a few minutes.',
};

/** Optional "one moment" texts, for a holding message the tenant turns on; not sent by default. */
export const DEFAULT_HOLDING_MESSAGES: Record<FallbackLanguage, string> = {
  pt: 'Um momento, já respondo.',
  es: 'Un momento, ya te respondo.',
  en: 'One moment, I’ll be right with you.',
};

// Words frequent in one of the languages and rare in the others (accents matter: "não", "está").
const MARKERS: Record<FallbackLanguage, RegExp> = {
  pt: /(?<![\p{L}])(você|voce|não|nao|com|uma|são|pergunte|obrigad[oa]|olá|diária|quarto|seu|sua|em|do|da|os|as)(?![\p{L}])/giu,
  es: /(?<![\p{L}])(usted|tú|con|una|son|pregunta|gracias|hola|habitación|su|el|los|las|en|del|por favor)(?![\p{L}])/giu,
  en: /(?<![\p{L}])(you|the|and|with|your|is|are|ask|customer|thanks|hello|please|room|booking|to|of)(?![\p{L}])/giu,
};

/** The language an agent's texts (instructions, step prompts, questions) are written in, if any shows. */
export function agentLanguage(config: Pick<AgentConfig, 'instructions' | 'flows' | 'fields'>): FallbackLanguage | undefined {
  const texts = [config.instructions ?? '', ...Object.values(config.fields ?? {}).map((f) => f.ask ?? ''), JSON.stringify(config.flows ?? [])];
  const text = texts.join(' ').toLowerCase();
  let best: FallbackLanguage | undefined;
  let bestScore = 0;
  for (const lang of Object.keys(MARKERS) as FallbackLanguage[]) {
    const score = text.match(MARKERS[lang])?.length ?? 0;
    if (score > bestScore) {
      best = lang;
      bestScore = score;
    }
  }
  return bestScore >= 2 ? best : undefined;
}

/** The default fallback message for this agent: in its language, else English. */
export function defaultFallbackMessage(config: Pick<AgentConfig, 'instructions' | 'flows' | 'fields'>): string {
  return DEFAULT_FALLBACK_MESSAGES[agentLanguage(config) ?? 'en'];
}

/** The config with a fallback message: its own, else the default for its language. */
export function withFallbackMessage<T extends AgentConfig>(config: T): T {
  return config.fallbackMessage ? config : { ...config, fallbackMessage: defaultFallbackMessage(config) };
}

/**
 * The fallback message of an agent config as stored (JSON not yet validated: a draft, or a
 * version that no longer loads): its own text, else the default for its language. Used where
 * a customer must get an answer without the agent being built (a turn that failed to load it,
 * a message refused over the tenant's quota or budget).
 */
export function fallbackMessageOf(json: unknown): string {
  const c = (json && typeof json === 'object' ? json : {}) as Partial<Record<keyof AgentConfig, unknown>>;
  if (typeof c.fallbackMessage === 'string' && c.fallbackMessage.trim()) return c.fallbackMessage;
  return defaultFallbackMessage({
    instructions: typeof c.instructions === 'string' ? c.instructions : undefined,
    flows: Array.isArray(c.flows) ? (c.flows as AgentConfig['flows']) : [],
    fields: c.fields && typeof c.fields === 'object' ? (c.fields as AgentConfig['fields']) : {},
  });
}
