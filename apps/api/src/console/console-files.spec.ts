import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConsoleTarget } from './console-files';

const parent = mkdtempSync(join(tmpdir(), 'console-'));
const root = join(parent, 'dist');
mkdirSync(join(root, 'assets'), { recursive: true });
writeFileSync(join(root, 'index.html'), '<html></html>');
writeFileSync(join(root, 'assets', 'index-abc.js'), '');
writeFileSync(join(root, 'robots.txt'), '');
writeFileSync(join(parent, 'secret.txt'), 'outside the root');

describe('resolveConsoleTarget', () => {
  it('sends built files, hashed assets as immutable', () => {
    expect(resolveConsoleTarget(root, 'assets/index-abc.js')).toEqual({ kind: 'file', path: 'assets/index-abc.js', immutable: true });
    expect(resolveConsoleTarget(root, 'robots.txt')).toEqual({ kind: 'file', path: 'robots.txt', immutable: false });
  });

  it('answers index.html for the root and for client routes', () => {
    expect(resolveConsoleTarget(root, '')).toEqual({ kind: 'index' });
    expect(resolveConsoleTarget(root, 'sessions/123/show')).toEqual({ kind: 'index' });
  });

  it('answers missing for an absent asset instead of index.html', () => {
    expect(resolveConsoleTarget(root, 'assets/index-old.js')).toEqual({ kind: 'missing' });
  });

  it('never reaches outside the build folder', () => {
    expect(resolveConsoleTarget(root, '../secret.txt')).toEqual({ kind: 'missing' });
    expect(resolveConsoleTarget(root, 'assets/../../secret.txt')).toEqual({ kind: 'missing' });
    expect(resolveConsoleTarget(root, '/../../secret.txt')).toEqual({ kind: 'missing' });
  });
});
