import { createHash } from 'node:crypto';
import type { ToolResult, ToolValidationResult } from '@falai/agent';
import { AgentTool, type AgentToolCtx, type AgentToolHandler } from '../agent-tool.decorator';

type ReservaData = { reserva: string };

/**
 * The Concierge's `reservar` (tool.md's example): confirms the booking and writes its code into
 * the `reserva` field. The code derives from the idempotency key, so a replayed turn books the
 * same reservation instead of a second one.
 */
@AgentTool({
  id: 'reservar',
  description: 'Confirma a reserva e devolve o código.',
  parameters: { type: 'object', properties: { cidade: { type: 'string' } }, required: ['cidade'] },
  isDestructive: true,
})
export class ReservarTool implements AgentToolHandler<ReservaData> {
  validateInput(input: Record<string, unknown>): ToolValidationResult {
    return typeof input.cidade === 'string' && input.cidade.length > 0
      ? { valid: true }
      : { valid: false, error: 'Informe a cidade.' };
  }

  handle(_args: Record<string, unknown>, ctx: AgentToolCtx<ReservaData>): ToolResult<ReservaData> {
    const digest = createHash('sha256').update(ctx.idempotencyKey).digest();
    const codigo = `RES-${digest.readUIntBE(0, 6).toString(36).toUpperCase()}`;
    return { value: { codigo }, data: { reserva: codigo } };
  }
}
