import { isJobId } from './dead-letter.dto';

describe('isJobId', () => {
  const uuid = '3f1b7a52-9c1e-4d7a-8a47-0d6f3f1b7a52';

  it('accepts the ids the turn queue makes', () => {
    expect(isJobId(`msg-${uuid}`)).toBe(true);
    expect(isJobId(`sweep-${uuid}`)).toBe(true);
    expect(isJobId(`wake-${'a1'.repeat(20)}`)).toBe(true);
  });

  it.each(['msg-not-a-uuid', `msg-${uuid}x`, `other-${uuid}`, 'wake-xyz', `wake-${'A1'.repeat(20)}`, '', `msg-${uuid};x`])('refuses %j', (id) => {
    expect(isJobId(id)).toBe(false);
  });
});
