import type { ActionResult } from '@falai/agent';
import { HandOffSession } from '../../hand-off/hand-off-session';
import { AgentAction, type AgentActionCtx, type AgentActionHandler } from '../agent-action.decorator';

/**
 * Hands the session to a person from a flow (`{ do: "handoff_to_human" }`), like the tool of the
 * same id does from the model: the session becomes `handed_off` and the worker stops answering
 * it, and the channel's webhook gets a `session.handed_off` event. Doing it twice changes
 * nothing, so a replayed step is harmless.
 */
@AgentAction({
  name: 'handoff_to_human',
  description: 'Passa a conversa para um atendente humano.',
  params: { type: 'object', properties: { reason: { type: 'string' } } },
})
export class HandoffAction implements AgentActionHandler {
  constructor(private readonly handOff: HandOffSession) {}

  async handle(params: Record<string, unknown>, ctx: AgentActionCtx): Promise<ActionResult> {
    const { tenantId, sessionId } = ctx.context;
    await this.handOff.execute(tenantId, sessionId, typeof params.reason === 'string' ? params.reason : undefined);
    return { ok: true };
  }
}
