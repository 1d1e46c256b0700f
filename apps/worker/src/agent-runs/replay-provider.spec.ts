import { ProviderError, type ModelRequest } from '@falai/agent';
import type { RecordedCall } from '@switchboard/queue';
import { RecordingProvider } from './recording-provider';
import { ReplayProvider } from './replay-provider';

const req = (call: 'understand' | 'speak', round: number, tools: string[] = [], schema?: string): ModelRequest => ({
  call,
  round,
  system: 's',
  history: [],
  tools: tools.map((name) => ({ name })),
  ...(schema && { schema: { name: schema, schema: {} } }),
});

describe('recording and replaying model replies', () => {
  it('records each reply with the shape of its request, and a replay gives the same replies back', async () => {
    const replies = [
      { text: null, structured: { cidade: 'Curitiba' }, toolCalls: [] },
      { text: 'R$ 320', toolCalls: [{ name: 'preco', arguments: { cidade: 'Curitiba' } }] },
    ];
    let i = 0;
    const recorder = new RecordingProvider({ name: 'openai', model: 'm', generate: async () => replies[i++] });
    await recorder.generate(req('understand', 0, [], 'understand'));
    await recorder.generate(req('speak', 1, ['reservar', 'preco']));
    const recording = [recorder.take()];
    expect(recording[0].map(({ reply: _, ...shape }) => shape)).toEqual([
      { call: 'understand', round: 0, tools: [], schema: 'understand' },
      { call: 'speak', round: 1, tools: ['preco', 'reservar'] },
    ]);
    expect(recorder.take()).toEqual([]);

    const replay = new ReplayProvider(recording, 'm');
    replay.startTurn(0);
    expect(await replay.generate(req('understand', 0, [], 'understand'))).toEqual(replies[0]);
    expect(await replay.generate(req('speak', 1, ['preco']))).toEqual(replies[1]);
    expect(replay.diverged).toBeUndefined();
  });

  it('names the first call no recorded reply fits, and refuses it', async () => {
    const recording: RecordedCall[][] = [[{ call: 'speak', round: 1, tools: [], reply: { text: 'oi', toolCalls: [] } }]];
    const replay = new ReplayProvider(recording, 'm');
    replay.startTurn(0);
    await expect(replay.generate(req('understand', 0, [], 'understand'))).rejects.toBeInstanceOf(ProviderError);
    expect(replay.diverged).toEqual({
      turn: 1,
      call: 1,
      recorded: { call: 'speak', round: 1, tools: [] },
      actual: { call: 'understand', round: 0, tools: [], schema: 'understand' },
      message: 'turn 1, model call 1 (understand, round 0): the recording has a speak call here',
    });
    replay.startTurn(1);
    await expect(replay.generate(req('speak', 1))).rejects.toThrow('the recording has no reply for this call');
    // The first divergence is the one reported.
    expect(replay.diverged?.turn).toBe(1);
  });
});
