// ModelRequest builders shared by the provider tests.
import type { ModelRequest, ProviderError } from '../../src/provider';

export function speak(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    call: 'speak',
    round: 1,
    system: 'Você é o Concierge de um hotel.',
    history: [{ role: 'user', content: 'Quero um quarto em Curitiba' }],
    tools: [],
    ...overrides,
  };
}

export const precoTool = {
  name: 'preco',
  description: 'Preço da diária em uma cidade.',
  parameters: { type: 'object', properties: { cidade: { type: 'string' } }, required: ['cidade'] },
};

export const understandSchema = {
  name: 'understand',
  schema: {
    type: 'object',
    properties: { fields: { type: 'object', properties: { cidade: { type: ['string', 'null'] } } } },
    required: ['fields'],
  },
};

/** Awaits a rejection and returns the ProviderError, failing the test if it resolved. */
export async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (err) {
    return err as ProviderError;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** Fast backoff so retry tests take milliseconds; Retry-After is still honoured. */
export const fastRetry = { baseDelayMs: 1, maxDelayMs: 5 };
