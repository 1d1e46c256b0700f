import { Test } from '@nestjs/testing';
import { isBusinessHours } from './builtin/business-hours.condition';
import { ConditionRegistry } from './condition-registry';
import { ConditionsModule } from './conditions.module';

describe('ConditionRegistry', () => {
  it('finds the built-in business_hours condition and runs it on the turn clock', async () => {
    const mod = await Test.createTestingModule({ imports: [ConditionsModule] }).compile();
    await mod.init();
    const reg = mod.get(ConditionRegistry);
    expect(reg.list().map((c) => c.name)).toEqual(['business_hours']);
    const [condition] = reg.engineConditions();
    const at = (iso: string) => ({ sessionId: 's', context: { tenantId: 't', sessionId: 's', turnId: 'u' }, data: {}, now: new Date(iso) });
    // 2026-12-02 is a Wednesday; São Paulo is UTC-3.
    expect(condition.test(at('2026-12-02T12:00:00Z'))).toBe(true); // 09:00
    expect(condition.test(at('2026-12-02T11:59:00Z'))).toBe(false); // 08:59
  });
});

describe('isBusinessHours', () => {
  it.each([
    ['2026-12-02T20:59:00Z', true], // Wednesday 17:59
    ['2026-12-02T21:00:00Z', false], // Wednesday 18:00: closed
    ['2026-12-05T15:00:00Z', false], // Saturday noon
    ['2026-12-07T02:00:00Z', false], // Sunday 23:00 (already Monday in UTC)
    ['2026-12-07T12:30:00Z', true], // Monday 09:30
  ])('%s → %s', (iso, open) => {
    expect(isBusinessHours(new Date(iso))).toBe(open);
  });
});
