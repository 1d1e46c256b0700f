import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { BatchedWindow, type WindowCount } from './batched-window';

const LIMIT = 7;

function memoryWindow(): { limiter: RateLimiterMemory; window: BatchedWindow; consume: jest.SpyInstance } {
  const limiter = new RateLimiterMemory({ points: LIMIT, duration: 60 });
  const consume = jest.spyOn(limiter, 'consume');
  return { limiter, window: new BatchedWindow(limiter, LIMIT), consume };
}

const summary = (counts: WindowCount[]) => counts.map((c) => `${c.refused ? 'refused' : 'passed'} ${c.window.remaining}`);

describe('BatchedWindow', () => {
  it('gives concurrent requests the places they would get one by one, in one store call', async () => {
    const together = memoryWindow();
    const concurrent = await Promise.all(Array.from({ length: 10 }, () => together.window.count('key-1')));
    const alone = memoryWindow();
    const sequential: WindowCount[] = [];
    for (let i = 0; i < 10; i++) sequential.push(await alone.window.count('key-1'));

    expect(summary(concurrent)).toEqual(['passed 6', 'passed 5', 'passed 4', 'passed 3', 'passed 2', 'passed 1', 'passed 0', 'refused 0', 'refused 0', 'refused 0']);
    expect(summary(concurrent)).toEqual(summary(sequential));
    expect(together.consume.mock.calls).toEqual([['key-1', 10]]);
    expect(alone.consume).toHaveBeenCalledTimes(10);
    // Every request used up its point, refused or not, as a lone consume does.
    expect((await together.limiter.get('key-1'))?.consumedPoints).toBe(10);
    expect(concurrent[0].window).toEqual({ limit: LIMIT, remaining: 6, resetSeconds: 60 });
  });

  it('counts each id of a batch in its own window', async () => {
    const { limiter, window, consume } = memoryWindow();
    await limiter.consume('full', LIMIT);
    consume.mockClear();
    const [a, b, c] = await Promise.all([window.count('full'), window.count('fresh'), window.count('fresh')]);
    expect(summary([a, b, c])).toEqual(['refused 0', 'passed 6', 'passed 5']);
    expect(consume.mock.calls.sort()).toEqual([
      ['fresh', 2],
      ['full', 1],
    ]);
  });

  it('refuses the whole batch when the store refuses without counting (a block)', async () => {
    const blocking = { consume: jest.fn().mockRejectedValue(new RateLimiterRes(0, 5_000)) } as unknown as RateLimiterAbstract;
    const window = new BatchedWindow(blocking, LIMIT);
    const counts = await Promise.all([window.count('k'), window.count('k')]);
    expect(counts.map((c) => c.refused)).toEqual([true, true]);
    expect(counts[0].window).toEqual({ limit: LIMIT, remaining: 0, resetSeconds: 5 });
  });

  it('fails only the calls of the id whose store call failed', async () => {
    const down = new Error('store down');
    const limiter = new RateLimiterMemory({ points: LIMIT, duration: 60 });
    const original = limiter.consume.bind(limiter);
    jest.spyOn(limiter, 'consume').mockImplementation((id: string | number, n?: number) => (id === 'broken' ? Promise.reject(down) : original(id, n)));
    const window = new BatchedWindow(limiter, LIMIT);
    const settled = await Promise.allSettled([window.count('broken'), window.count('ok'), window.count('broken')]);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'fulfilled', 'rejected']);
    expect((settled[0] as PromiseRejectedResult).reason).toBe(down);
  });
});
