import type { ConditionCtx } from '@falai/agent';
import type { TurnContext } from '../../tools/agent-tool.decorator';
import { AgentCondition, type AgentConditionHandler } from '../agent-condition.decorator';

const TIME_ZONE = 'America/Sao_Paulo';
const OPENS_AT_MINUTE = 9 * 60;
const CLOSES_AT_MINUTE = 18 * 60;
const WEEKDAYS = new Set(['Mon', 'Tue', 'Wed', 'Thu', 'Fri']);

const parts = new Intl.DateTimeFormat('en-US', {
  timeZone: TIME_ZONE,
  weekday: 'short',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** True Monday to Friday, 09:00 to 18:00 (exclusive) in São Paulo time. */
export function isBusinessHours(at: Date): boolean {
  const p = Object.fromEntries(parts.formatToParts(at).map((x) => [x.type, x.value]));
  const minute = Number(p.hour) * 60 + Number(p.minute);
  return WEEKDAYS.has(p.weekday) && minute >= OPENS_AT_MINUTE && minute < CLOSES_AT_MINUTE;
}

/**
 * `{ if: "business_hours", then: "humano", else: "recado" }`: whether the team is at work now
 * (Monday to Friday, 09:00–18:00, São Paulo), read from the turn's clock.
 */
@AgentCondition({ name: 'business_hours', description: 'Segunda a sexta, 09:00–18:00 (horário de São Paulo).' })
export class BusinessHoursCondition implements AgentConditionHandler {
  test(ctx: ConditionCtx<TurnContext>): boolean {
    return isBusinessHours(ctx.now);
  }
}
