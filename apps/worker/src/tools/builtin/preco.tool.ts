import type { ToolResult, ToolValidationResult } from '@falai/agent';
import { AgentTool, type AgentToolHandler } from '../agent-tool.decorator';
import { NightlyPrices } from './nightly-prices';

/** The Concierge's `preco` (tool.md's example): the nightly price in a city. */
@AgentTool({
  id: 'preco',
  description: 'Preço da diária em uma cidade.',
  parameters: { type: 'object', properties: { cidade: { type: 'string' } }, required: ['cidade'] },
  isReadOnly: true,
})
export class PrecoTool implements AgentToolHandler {
  constructor(private readonly prices: NightlyPrices) {}

  validateInput(input: Record<string, unknown>): ToolValidationResult {
    return typeof input.cidade === 'string' && input.cidade.trim().length > 0
      ? { valid: true }
      : { valid: false, error: 'Informe a cidade.' };
  }

  handle(args: Record<string, unknown>): ToolResult {
    return { value: { precoNoite: this.prices.lookup(String(args.cidade)).price } };
  }
}
