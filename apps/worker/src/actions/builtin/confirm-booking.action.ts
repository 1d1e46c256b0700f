import { createHash } from 'node:crypto';
import type { ActionResult } from '@falai/agent';
import { AgentAction, type AgentActionCtx, type AgentActionHandler } from '../agent-action.decorator';

type ReservaData = { reserva: string };

/** The booking code of a step visit: the same key always gives the same code. */
export function bookingCode(idempotencyKey: string): string {
  const digest = createHash('sha256').update(idempotencyKey).digest();
  return `RES-${digest.readUIntBE(0, 6).toString(36).toUpperCase()}`;
}

/**
 * The Concierge's booking confirmation as a `do` step (`{ do: "confirm_booking", with: { cidade } }`):
 * writes the code into the `reserva` field and tells the customer. The code derives from the
 * idempotency key, so a replayed or retried step confirms the same booking, never a second one.
 */
@AgentAction({
  name: 'confirm_booking',
  description: 'Confirma a reserva na cidade dada, grava o código no campo `reserva` e avisa a pessoa.',
  params: { type: 'object', properties: { cidade: { type: 'string' } }, required: ['cidade'] },
})
export class ConfirmBookingAction implements AgentActionHandler<ReservaData> {
  handle(params: Record<string, unknown>, ctx: AgentActionCtx<ReservaData>): ActionResult<ReservaData> {
    const cidade = typeof params.cidade === 'string' ? params.cidade.trim() : '';
    if (!cidade) return { failed: 'no city to book in' };
    if (ctx.data.reserva) return { skipped: `already booked (${ctx.data.reserva})` };
    const codigo = bookingCode(ctx.idempotencyKey);
    return { ok: true, data: { reserva: codigo }, spoke: `Reserva confirmada em ${cidade}. Código: ${codigo}.` };
  }
}
