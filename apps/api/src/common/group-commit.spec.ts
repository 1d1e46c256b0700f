import { GroupCommit, type Outcome } from './group-commit';

/** A batch runner that records its batches and returns when told to. */
function recorder() {
  const batches: number[][] = [];
  const release: (() => void)[] = [];
  const run = (items: number[]): Promise<Outcome<number>[]> => {
    batches.push(items);
    return new Promise((resolve) =>
      release.push(() => resolve(items.map((n) => (n < 0 ? { ok: false, error: new Error(`bad ${n}`) } : { ok: true, value: n * 10 })))),
    );
  };
  return { batches, release, run };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommit', () => {
  it('sends the calls of one event-loop turn together, and settles each with its own outcome', async () => {
    const r = recorder();
    const group = new GroupCommit(r.run, { maxBatch: 10, maxWaitMs: 2 });
    const calls = [group.submit(1), group.submit(-2), group.submit(3)];
    await tick();
    expect(r.batches).toEqual([[1, -2, 3]]);
    r.release[0]();
    expect(await Promise.allSettled(calls)).toEqual([
      { status: 'fulfilled', value: 10 },
      { status: 'rejected', reason: new Error('bad -2') },
      { status: 'fulfilled', value: 30 },
    ]);
  });

  it('settles nothing before its batch returns, and gathers the calls that arrive meanwhile into the next batch', async () => {
    const r = recorder();
    const group = new GroupCommit(r.run, { maxBatch: 10, maxWaitMs: 1000 });
    let settled = false;
    const first = group.submit(1).finally(() => (settled = true));
    await tick();
    const later = [group.submit(2), group.submit(3)];
    await tick();
    expect(settled).toBe(false);
    expect(r.batches).toEqual([[1]]);
    r.release[0]();
    expect(await first).toBe(10);
    await tick();
    expect(r.batches).toEqual([[1], [2, 3]]);
    r.release[1]();
    expect(await Promise.all(later)).toEqual([20, 30]);
  });

  it('sends the gathered calls after maxWaitMs even while a batch is still in flight', async () => {
    const r = recorder();
    const group = new GroupCommit(r.run, { maxBatch: 10, maxWaitMs: 5 });
    void group.submit(1);
    await tick();
    void group.submit(2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(r.batches).toEqual([[1], [2]]);
  });

  it('splits at maxBatch, and fails every call of a batch that throws', async () => {
    const group = new GroupCommit<number, number>(() => Promise.reject(new Error('down')), { maxBatch: 2, maxWaitMs: 2 });
    const sizes: number[] = [];
    const counting = new GroupCommit<number, number>(
      (items) => {
        sizes.push(items.length);
        return Promise.resolve(items.map((n) => ({ ok: true, value: n })));
      },
      { maxBatch: 2, maxWaitMs: 2 },
    );
    await Promise.all([1, 2, 3, 4, 5].map((n) => counting.submit(n)));
    expect(sizes).toEqual([2, 2, 1]);
    await expect(Promise.all([group.submit(1), group.submit(2)])).rejects.toThrow('down');
  });
});
