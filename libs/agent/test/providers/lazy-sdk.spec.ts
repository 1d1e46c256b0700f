import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

// The provider SDKs are loaded when a provider of their kind is built, not with the engine: a
// worker whose agents use one provider (or only the ScriptedProvider) keeps the others' memory.
const root = join(__dirname, '..', '..', '..', '..');

function loadedAfter(script: string): { openai: boolean; genai: boolean } {
  const probe = `
    ${script}
    const loaded = Object.keys(require.cache);
    console.log(JSON.stringify({
      openai: loaded.some((f) => /node_modules[\\\\/]openai[\\\\/]/.test(f)),
      genai: loaded.some((f) => /node_modules[\\\\/]@google[\\\\/]genai[\\\\/]/.test(f)),
    }));`;
  const out = execFileSync(process.execPath, ['-r', '@swc-node/register', '-e', probe], { cwd: root, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop()!) as { openai: boolean; genai: boolean };
}

jest.setTimeout(60_000);

it('loading the engine and building a scripted provider loads neither SDK', () => {
  expect(
    loadedAfter(`const { createProvider } = require('./libs/agent/src'); createProvider({ provider: 'scripted', model: 's', scripted: { rules: [] } });`),
  ).toEqual({ openai: false, genai: false });
});

it('building an OpenAI provider loads the openai SDK only, a Gemini provider @google/genai only', () => {
  const engine = `const { createProvider } = require('./libs/agent/src');`;
  expect(loadedAfter(`${engine} createProvider({ provider: 'openai', model: 'm', credentials: { apiKey: 'k' } });`)).toEqual({ openai: true, genai: false });
  expect(loadedAfter(`${engine} createProvider({ provider: 'gemini', model: 'm', credentials: { apiKey: 'k' } });`)).toEqual({ openai: false, genai: true });
});
