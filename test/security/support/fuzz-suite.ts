import { CASES_PER_ROUTE, fuzzRoute, type FuzzTarget, type RouteReport } from './fuzz';
import { createFuzzWorld, recordReports, type FuzzWorld } from './fuzz-world';

/**
 * One fuzz spec file: every route `pick` selects gets CASES_PER_ROUTE hostile requests. The
 * routes are split over three files so jest's two workers share the work.
 */
export function fuzzSuite(name: string, title: string, pick: (t: FuzzTarget) => boolean, minRoutes: number): void {
  // Minutes on a quiet machine; a machine shared with other test runs can be ten times slower,
  // and the suite should then finish late rather than fail.
  jest.setTimeout(1_800_000);
  let w: FuzzWorld;
  beforeAll(async () => {
    w = await createFuzzWorld();
  });
  afterAll(() => w?.close());

  describe(title, () => {
    it(`answers ${CASES_PER_ROUTE} hostile requests per route without a 5xx, every error in the error shape, no write accepted, no row changed`, async () => {
      const before = await w.snapshot();
      const targets = w.targets.filter(pick);
      const reports: RouteReport[] = [];
      for (const t of targets) reports.push(await fuzzRoute(w.api, t));
      recordReports(name, reports);

      expect(targets.length).toBeGreaterThanOrEqual(minRoutes);
      expect(reports.filter((r) => r.cases < CASES_PER_ROUTE).map((r) => r.route)).toEqual([]);
      // A few examples per route are enough to reproduce; the counts are in .tmp/security-*.json.
      expect(reports.flatMap((r) => r.serverErrors.slice(0, 3))).toEqual([]);
      expect(reports.flatMap((r) => r.badShape.slice(0, 3))).toEqual([]);
      expect(reports.flatMap((r) => r.acceptedWrites.slice(0, 3))).toEqual([]);
      expect(await w.snapshot()).toBe(before);
    });
  });
}
