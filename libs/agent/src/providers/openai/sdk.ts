// The `openai` package, loaded on first use: a process whose agents never talk to an OpenAI or
// OpenAI-compatible server does not pay for the SDK (~10 MB of RSS in a worker).
type OpenAISdk = typeof import('openai');

let sdk: OpenAISdk | undefined;

export function openaiSdk(): OpenAISdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy, see above
  return (sdk ??= require('openai') as OpenAISdk);
}
