import { conciergeAgentConfig } from '@switchboard/agent-config';
import type { Table, TargetCheck as Target } from '../support/results';
import { CONCIERGE_CONVERSATION, conciergeRequests } from './concierge-requests';
import { sharesByCall, stablePrefixes, type CacheProvider } from './stable-prefix';

// The engine bench's prompt-caching report (issue 25 §5, docs/cost.md "Prompt caching"): per
// provider and call type, the share of the Concierge's request characters that is a stable prefix.

/** The goal for a speak call: at least this share of its characters a cacheable prefix. */
export const SPEAK_PREFIX_GOAL = 0.7;

const PROVIDERS: CacheProvider[] = ['openai', 'gemini'];
const pct = (share: number | null) => (share === null ? '–' : `${(share * 100).toFixed(1)}%`);

export interface PromptCacheReport {
  table: Table;
  targets: Target[];
  notes: string[];
}

/** `judge`: false at smoke size, where, by the benches' rule, no target is judged (the characters are the same). */
export async function promptCacheReport(judge: boolean): Promise<PromptCacheReport> {
  const requests = await conciergeRequests();
  const rows: (string | number)[][] = [];
  const targets: Target[] = [];
  for (const provider of PROVIDERS) {
    for (const s of sharesByCall(stablePrefixes(provider, requests))) {
      rows.push([provider, s.call, s.requests, s.chars, pct(s.share), pct(s.minLaterShare)]);
      if (s.call === 'speak') {
        targets.push({
          target: `${provider}: a stable prefix ≥ ${SPEAK_PREFIX_GOAL * 100}% of a speak call's characters across the Concierge's turns`,
          actual: `${pct(s.share)} of ${s.chars} characters over ${s.requests} speak calls`,
          met: judge ? s.share >= SPEAK_PREFIX_GOAL : null,
        });
      }
    }
  }
  return {
    table: {
      title: `Prompt caching: stable prefix per call type, the Concierge (${conciergeAgentConfig.name}) over ${CONCIERGE_CONVERSATION.length} turns`,
      columns: ['provider', 'call', 'requests', 'characters', 'stable prefix share', 'lowest share after the first request'],
      rows,
    },
    targets,
    notes: [
      'Prompt caching: each model request of the Concierge conversation (' +
        CONCIERGE_CONVERSATION.map((m) => `“${m}”`).join(', ') +
        '), each turn with the conversation before it as history as the worker passes it, is rendered in the order the provider reads ' +
        'it for its prefix cache (OpenAI: tools, reply schema, messages; Gemini: system instruction, tools, schema, contents) through the ' +
        'providers’ own request mapping; its stable prefix is the longest prefix it shares with any request sent before it in the ' +
        'conversation. Source: bench/prompt-cache.',
    ],
  };
}
