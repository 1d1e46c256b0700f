import { metricsScrapeAllowed } from './metrics-token';

describe('metricsScrapeAllowed', () => {
  const token = 'metrics-token-0123456789';

  it('lets every scrape through when no METRICS_TOKEN is set', () => {
    expect(metricsScrapeAllowed(undefined, undefined)).toBe(true);
  });

  it('wants exactly `Bearer <token>` when one is set', () => {
    expect(metricsScrapeAllowed(`Bearer ${token}`, token)).toBe(true);
    for (const header of [undefined, '', token, `bearer ${token}`, `Bearer ${token} `, `Bearer ${token.slice(1)}`, `Basic ${token}`]) {
      expect(metricsScrapeAllowed(header, token)).toBe(false);
    }
  });
});
