// The tenant switcher's refetch (apps/admin/src/api/refetch-everything.ts): a list fetch in
// flight when the platform admin picks another tenant must not stand as the list afterwards.
import { QueryClient, QueryObserver } from '@tanstack/query-core';

type Refetch = typeof import('../../apps/admin/src/api/refetch-everything.js', { with: { 'resolution-mode': 'import' } });

let refetchEverything: Refetch['refetchEverything'];
beforeAll(async () => {
  ({ refetchEverything } = await import('../../apps/admin/src/api/refetch-everything.js'));
});

/** A list query whose answer is the tenant picked when its fetch started, answered `delayMs` later. */
function listOfPickedTenant(pick: { tenant: string }, delayMs: (tenant: string) => number) {
  const client = new QueryClient();
  const observer = new QueryObserver<string[]>(client, {
    queryKey: ['sessions', 'getList', { filter: { q: 'switch-' } }],
    queryFn: async () => {
      const tenant = pick.tenant;
      await new Promise((r) => setTimeout(r, delayMs(tenant)));
      return [`row of ${tenant}`];
    },
  });
  return { client, observer };
}

async function settled(observer: QueryObserver<string[]>): Promise<string[] | undefined> {
  for (let i = 0; i < 100 && observer.getCurrentResult().fetchStatus !== 'idle'; i++) await new Promise((r) => setTimeout(r, 10));
  return observer.getCurrentResult().data;
}

describe('refetchEverything after a tenant switch', () => {
  it("drops an answer in flight for the old pick (a query with no data yet) and reads the new pick's", async () => {
    const pick = { tenant: 'all' };
    const { client, observer } = listOfPickedTenant(pick, (t) => (t === 'all' ? 150 : 10));
    const unsubscribe = observer.subscribe(() => undefined);
    try {
      await new Promise((r) => setTimeout(r, 20)); // the first fetch is in flight, no data yet
      pick.tenant = 'tenant-a';
      await refetchEverything(client);
      expect(await settled(observer)).toEqual(['row of tenant-a']);
      await new Promise((r) => setTimeout(r, 200)); // the old answer arrives: it is dropped
      expect(observer.getCurrentResult().data).toEqual(['row of tenant-a']);
    } finally {
      unsubscribe();
      client.clear();
    }
  });

  it('is needed: invalidating alone lets that answer of the old pick stand', async () => {
    const pick = { tenant: 'all' };
    const { client, observer } = listOfPickedTenant(pick, (t) => (t === 'all' ? 150 : 10));
    const unsubscribe = observer.subscribe(() => undefined);
    try {
      await new Promise((r) => setTimeout(r, 20));
      pick.tenant = 'tenant-a';
      await client.invalidateQueries();
      expect(await settled(observer)).toEqual(['row of all']);
    } finally {
      unsubscribe();
      client.clear();
    }
  });
});
