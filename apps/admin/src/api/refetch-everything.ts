/** The two calls of react-query's QueryClient this needs (typed apart so the unit tests do not load React's types). */
export interface QueryCache {
  cancelQueries(): Promise<void>;
  invalidateQueries(): Promise<void>;
}

/**
 * After the platform admin picks another tenant, everything cached and everything in flight was
 * read for the previous pick. Invalidating alone is not enough: react-query lets a fetch in
 * flight for a query with no data yet (a list whose filter just changed) finish instead of
 * refetching, and that answer, read for the old pick, then stood as the list (seen in CI:
 * another tenant's rows after a switch). Cancelling first drops those answers; the refetch then
 * reads with the new pick.
 */
export async function refetchEverything(queryClient: QueryCache): Promise<void> {
  await queryClient.cancelQueries();
  await queryClient.invalidateQueries();
}
