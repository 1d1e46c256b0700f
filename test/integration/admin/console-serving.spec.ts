import { ensureConsoleBuilt } from '../../browser/support/console-build';
import { apiUrl } from './support/admin-fixtures';

// The project-level testTimeout of jest.config.js is not applied (jest reads it from the root
// config only), and logins hash with argon2 on a busy machine: give each test a minute.
jest.setTimeout(60_000);

// The API serves apps/admin/dist at /admin; these check the HTTP side without a browser.
beforeAll(() => ensureConsoleBuilt(), 240_000);

const get = (path: string) => fetch(apiUrl(path), { redirect: 'manual' });

describe('the console at /admin', () => {
  it('redirects /admin to /admin/', async () => {
    const res = await get('/admin');
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/admin/');
  });

  it('answers index.html, never cached, for /admin/ and for client routes', async () => {
    for (const path of ['/admin/', '/admin/sessions/123/show']) {
      const res = await get(path);
      expect({ path, status: res.status, type: res.headers.get('content-type') }).toEqual({ path, status: 200, type: 'text/html; charset=utf-8' });
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toContain('<div id="root"></div>');
    }
  });

  it('serves the hashed bundle named by index.html as immutable', async () => {
    const html = await (await get('/admin/')).text();
    const src = /<script[^>]+src="([^"]+)"/.exec(html)?.[1];
    expect(src).toMatch(/^\/admin\/assets\/.+\.js$/);
    const res = await get(src!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('answers 404 for a missing asset and for paths climbing out of the build', async () => {
    for (const path of ['/admin/assets/gone-123.js', '/admin/..%2f..%2f..%2fpackage.json', '/admin/%2e%2e/%2e%2e/package.json']) {
      const res = await get(path);
      const body = await res.text();
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(body).not.toContain('"workspaces"');
    }
  });

  it('leaves the API routes alone', async () => {
    expect((await get('/health/live')).status).toBe(200);
    const me = await get('/v1/admin/auth/me');
    expect(me.status).toBe(401);
    expect(((await me.json()) as { error: { code: string } }).error.code).toBe('unauthenticated');
  });
});
