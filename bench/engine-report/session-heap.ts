// Heap per session blob: how much memory the engine's Session object takes once a turn has run,
// and how big it is as stored JSON (Session.state). Keeps `count` sessions alive, forces GC
// before and after, and divides. Run as a child with --expose-gc; prints one JSON line.
// (bench/engine/engine.bench.ts measures time per turn; this is its memory counterpart.)
import { falai, fakeClock, type AiProvider, type ModelReply, type ModelRequest, type Session, type Tool } from '@falai/agent';

const COUNT = Number(process.env.SESSION_HEAP_COUNT ?? 2000);

function reply(req: ModelRequest): ModelReply {
  if (req.call === 'understand') return { text: null, structured: { flows: { hospedagem: 95 }, fields: { cidade: 'Curitiba' } }, toolCalls: [] };
  if (req.round === 1) return { text: null, toolCalls: [{ name: 'preco', arguments: { cidade: 'Curitiba' } }] };
  return { text: null, structured: { message: 'A diária em Curitiba sai por R$ 420.' }, toolCalls: [] };
}

const provider: AiProvider = { name: 'bare', model: 'bench', generate: async (req) => reply(req) };
const tools: Tool[] = [
  { id: 'preco', parameters: { type: 'object', properties: { cidade: { type: 'string' } } }, isReadOnly: () => true, handler: () => ({ value: { precoNoite: 420 }, data: { noites: 2 } }) },
];
const f = falai().fields({ cidade: { type: 'string', ask: 'Pergunte a cidade.' }, noites: { type: 'integer' } });
const flow = f.flow({
  id: 'hospedagem',
  name: 'Hospedagem',
  on: [{ message: ['quero um quarto'] }],
  steps: [
    { id: 'ola', say: 'Olá! Vamos achar um quarto.' },
    { id: 'onde', collect: ['cidade'] },
    { id: 'oferta', prompt: 'Apresente o preço.', tools: ['preco'] },
    { id: 'aviso', say: 'Posso reservar quando quiser.' },
    { id: 'fim', prompt: 'Despeça-se.' },
  ],
});

function heapUsed(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

async function main(): Promise<void> {
  const agent = f.agent({ name: 'Bench', provider, tools, flows: [flow], clock: fakeClock('2026-12-02T12:00:00.000Z') });
  const empty = (id: string): Session => ({ id, version: 0, data: {}, runs: [], claims: {}, inputs: [], metadata: {} });
  const turn = async (i: number): Promise<Session> =>
    (await agent.turn({ sessionId: `s${i}`, message: 'quero um quarto em Curitiba', id: `m${i}`, session: empty(`s${i}`) })).session;
  for (let i = 0; i < 200; i++) await turn(-i - 1); // warm-up, so JIT code and caches are not counted
  const kept: Session[] = [];
  const before = heapUsed();
  for (let i = 0; i < COUNT; i++) kept.push(await turn(i));
  const after = heapUsed();
  const json = JSON.stringify(kept[0]);
  process.stdout.write(
    JSON.stringify({ sessions: kept.length, heapBytesPerSession: Math.round((after - before) / kept.length), jsonBytes: Buffer.byteLength(json), runs: kept[0].runs.length }) + '\n',
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
