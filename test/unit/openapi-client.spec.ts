import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

// libs/client is generated from the API's routes (npm run openapi:export) and committed: the
// console and the widget type-check against it, so it must say what the API says today. The
// script runs as its own process: openapi-typescript loads ES modules jest cannot require.

const ROOT = path.join(__dirname, '..', '..');

describe('libs/client', () => {
  it('is up to date with the API (run `npm run openapi:export` and commit when this fails)', async () => {
    const check = promisify(execFile)(process.execPath, ['-r', '@swc-node/register', 'scripts/export-openapi.ts', '--check'], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'silent' } });
    await expect(check.catch((err: { stderr?: string }) => Promise.reject(new Error(err.stderr)))).resolves.toMatchObject({ stdout: 'libs/client is up to date with the API\n' });
  }, 120_000);
});
