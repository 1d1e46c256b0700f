import { FlowConfigurationError } from '@falai/agent';
import { validateForPublish } from './validate-for-publish';

const base = {
  provider: { kind: 'scripted', model: 'scripted' },
  fields: { city: { type: 'string' } },
  tools: ['lookup'],
  idle: { tools: ['lookup'] },
  flows: [{ id: 'f', name: 'F', on: [{ message: ['hi'] }], steps: [{ id: 'a', kind: 'collect', collect: ['city'] }] }],
};

function rejection(config: unknown, tools = ['lookup']): FlowConfigurationError {
  try {
    validateForPublish(config, new Set(tools));
  } catch (err) {
    if (err instanceof FlowConfigurationError) return err;
    throw err;
  }
  throw new Error('expected a FlowConfigurationError');
}

describe('validateForPublish', () => {
  it('accepts a config the engine can build, with its warnings', () => {
    expect(validateForPublish(base, new Set(['lookup'])).warnings).toEqual([]);
  });

  it('points at an allow-listed tool that does not exist', () => {
    expect(rejection(base, []).path).toEqual(['tools', 0]);
  });

  it('points at an unknown field in a step', () => {
    const config = { ...base, flows: [{ ...base.flows[0], steps: [{ id: 'a', kind: 'collect', collect: ['nope'] }] }] };
    const err = rejection(config);
    expect(err.code).toBe('unknown-field');
    expect(err.path).toEqual(['flows', 0, 'steps', 0, 'collect', 0]);
  });

  it('points at an idle tool outside the allow-list', () => {
    expect(rejection({ ...base, idle: { tools: ['other'] } }).path).toEqual(['idle', 'tools', 0]);
  });

  it('refuses two flows with one id', () => {
    expect(rejection({ ...base, flows: [base.flows[0], base.flows[0]] }).code).toBe('duplicate-flow-id');
  });

  it('turns a config that is not an AgentConfig into an error at its path', () => {
    const err = rejection({ ...base, maxToolLoops: -1 });
    expect(err.path).toEqual(['maxToolLoops']);
    expect(err.message).toMatch(/^\[FlowConfigurationError\] agent config: maxToolLoops/);
  });
});

describe('validateForPublish with registered actions and conditions', () => {
  const known = { actions: { confirm_booking: { type: 'object' as const, properties: { cidade: { type: 'string' } }, required: ['cidade'] } }, conditions: ['business_hours'] };
  const withSteps = (steps: unknown[]) => ({ ...base, flows: [{ ...base.flows[0], steps }] });

  function refused(config: unknown): FlowConfigurationError {
    try {
      validateForPublish(config, new Set(['lookup']), known);
    } catch (err) {
      if (err instanceof FlowConfigurationError) return err;
      throw err;
    }
    throw new Error('expected a FlowConfigurationError');
  }

  it('accepts do steps and predicates naming what the worker registered', () => {
    const config = withSteps([
      { id: 'quando', kind: 'if', if: 'business_hours', then: 'reserva', else: 'end' },
      { id: 'reserva', kind: 'do', do: 'confirm_booking', with: { cidade: 'Lisboa' } },
    ]);
    expect(validateForPublish(config, new Set(['lookup']), known).warnings).toEqual([]);
  });

  it("refuses an unknown action with the engine's message and the step's path", () => {
    const err = refused(withSteps([{ id: 'x', kind: 'do', do: 'send_rockets' }]));
    expect(err.code).toBe('unknown-action');
    expect(err.message).toContain('send_rockets');
    expect(err.path).toEqual(['flows', 0, 'steps', 0, 'do']);
  });

  it("refuses params the action's schema does not take", () => {
    const err = refused(withSteps([{ id: 'x', kind: 'do', do: 'confirm_booking', with: {} }]));
    expect(err.code).toBe('missing-param');
  });

  it('refuses an unknown condition', () => {
    expect(refused(withSteps([{ id: 'x', kind: 'if', if: 'full_moon', then: 'end' }])).code).toBe('unknown-condition');
  });
});
