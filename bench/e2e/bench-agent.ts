import type { AgentConfig } from '@switchboard/agent-config';

/**
 * The agent of the end-to-end and memory benches: the idle speaker (no fields, no flows, so one
 * speak call per turn) played by the scripted provider with a fixed simulated model latency.
 */
export function benchAgentConfig(latencyMs: number): AgentConfig {
  return {
    name: 'Bench',
    provider: {
      kind: 'scripted',
      model: 'bench-script',
      scripted: { latencyMs, rules: [{ call: 'speak', reply: 'Olá! Como posso ajudar?' }] },
    },
    fields: {},
    flows: [],
    tools: [],
    doubleTexting: { policy: 'sequential' },
  };
}
