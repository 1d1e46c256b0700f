import type { ToolResult } from '@falai/agent';
import { HandOffSession } from '../../hand-off/hand-off-session';
import { AgentTool, type AgentToolCtx, type AgentToolHandler } from '../agent-tool.decorator';

/**
 * Hands the conversation to a person: the session becomes `handed_off`, and the worker stops
 * answering it (its messages are recorded, not answered) until an operator hands it back
 * through the API. Written at once rather than in the turn's commit, so a human sees the
 * session even if the rest of the turn fails; doing it twice changes nothing. The channel's
 * webhook gets a `session.handed_off` event (HandOffSession).
 */
@AgentTool({
  id: 'handoff_to_human',
  description: 'Passa a conversa para um atendente humano quando a pessoa pedir ou quando você não puder ajudar.',
  parameters: { type: 'object', properties: { motivo: { type: 'string', description: 'Por que a conversa vai para um humano.' } } },
  isDestructive: true,
})
export class HandoffToHumanTool implements AgentToolHandler {
  constructor(private readonly handOff: HandOffSession) {}

  async handle(args: Record<string, unknown>, ctx: AgentToolCtx): Promise<ToolResult> {
    const { tenantId, sessionId } = ctx.context;
    const motivo = typeof args.motivo === 'string' ? args.motivo : undefined;
    await this.handOff.execute(tenantId, sessionId, motivo);
    return { value: { handedOff: true, motivo } };
  }
}
