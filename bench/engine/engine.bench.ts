// Engine overhead per turn with a zero-latency model: everything measured here is the engine's
// own work (routing, moving runs, composing prompts, gates, settle, cloning the session).
// Run: node -r @swc-node/register bench/engine/engine.bench.ts   (not part of npm test)
import { performance } from 'node:perf_hooks';
import {
  fakeClock,
  falai,
  ScriptedProvider,
  type AiProvider,
  type ModelReply,
  type ModelRequest,
  type Session,
  type Tool,
} from '@falai/agent';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 20_000);
const WARMUP = Math.min(2_000, ITERATIONS);

/** Canned replies, no bookkeeping: the cheapest provider there is. */
function bareProvider(reply: (req: ModelRequest) => ModelReply): AiProvider {
  return { name: 'bare', model: 'bench', generate: async (req) => reply(req) };
}

/** The ScriptedProvider with the same replies; it also records every request (a structuredClone each). */
function scriptedProvider(reply: (req: ModelRequest) => ModelReply): AiProvider {
  const provider = new ScriptedProvider((req) => {
    // Keep memory flat over many turns: the bench never reads the recording.
    if (provider.requests.length > 64) provider.requests.length = 0;
    return reply(req);
  });
  return provider;
}

const idleReply = (): ModelReply => ({ text: null, structured: { message: 'Olá! Como posso ajudar?' }, toolCalls: [] });

/** Understand picks the flow and the city; speak round 1 and 2 call one tool each, round 3 replies. */
function flowReply(req: ModelRequest): ModelReply {
  if (req.call === 'understand') return { text: null, structured: { flows: { hospedagem: 95 }, fields: { cidade: 'Curitiba' } }, toolCalls: [] };
  if (req.round === 1) return { text: null, toolCalls: [{ name: 'preco', arguments: { cidade: 'Curitiba' } }] };
  if (req.round === 2) return { text: null, toolCalls: [{ name: 'disponibilidade', arguments: '{"cidade":"Curitiba"}' }] };
  return { text: null, structured: { message: 'A diária em Curitiba sai por R$ 420 e há quartos livres.' }, toolCalls: [] };
}

const f = falai().fields({
  cidade: { type: 'string', ask: 'Pergunte a cidade.' },
  noites: { type: 'integer' },
});

const tools: Tool[] = [
  { id: 'preco', parameters: { type: 'object', properties: { cidade: { type: 'string' } } }, isReadOnly: () => true, handler: () => ({ value: { precoNoite: 420 } }) },
  { id: 'disponibilidade', isReadOnly: () => true, handler: () => ({ value: { livres: 3 }, data: { noites: 2 } }) },
];

const fiveSteps = f.flow({
  id: 'hospedagem',
  name: 'Hospedagem',
  on: [{ message: ['quero um quarto'] }],
  steps: [
    { id: 'ola', say: 'Olá! Vamos achar um quarto.' },
    { id: 'onde', collect: ['cidade'] },
    { id: 'oferta', prompt: 'Apresente preço e disponibilidade.', tools: ['preco', 'disponibilidade'] },
    { id: 'aviso', say: 'Posso reservar quando quiser.' },
    { id: 'fim', prompt: 'Despeça-se.' },
  ],
});

function emptySession(id: string): Session {
  return { id, version: 0, data: {}, runs: [], claims: {}, inputs: [], metadata: {} };
}

interface Case {
  name: string;
  provider: AiProvider;
  /** The idle cases have no fields and no flows: nothing to judge, so no understand call. */
  idle: boolean;
  expectCalls: number;
}

const bare = falai().fields({});

async function measure(c: Case): Promise<{ name: string; turnsPerSec: number; usPerTurn: number; cpuUsPerTurn: number; calls: number }> {
  const clock = fakeClock('2026-12-02T12:00:00.000Z');
  const agent = c.idle
    ? bare.agent({ name: 'Bench', provider: c.provider, tools, flows: [], clock })
    : f.agent({ name: 'Bench', provider: c.provider, tools, flows: [fiveSteps], clock });
  const turn = (i: number) => agent.turn({ sessionId: `s${i}`, message: 'quero um quarto em Curitiba', id: `m${i}`, session: emptySession(`s${i}`) });
  const probe = await turn(-1);
  if (probe.llmCalls !== c.expectCalls) throw new Error(`${c.name}: expected ${c.expectCalls} calls, got ${probe.llmCalls}`);
  for (let i = 0; i < WARMUP; i += 1) await turn(i);
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < ITERATIONS; i += 1) await turn(i);
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return {
    name: c.name,
    turnsPerSec: Math.round((ITERATIONS / ms) * 1000),
    usPerTurn: Number(((ms * 1000) / ITERATIONS).toFixed(1)),
    // CPU time is the fairer number on a shared machine: wall time also counts other processes.
    cpuUsPerTurn: Number(((used.user + used.system) / ITERATIONS).toFixed(1)),
    calls: probe.llmCalls,
  };
}

/** Part two with no model call: a start runs an action and parks on a timer; its wake sends a follow-up. */
async function measureWakes(): Promise<{ name: string; turnsPerSec: number; usPerTurn: number; cpuUsPerTurn: number; calls: number }> {
  const clock = fakeClock('2026-12-02T12:00:00.000Z');
  const g = falai().fields({ pedido: { type: 'string' } });
  g.action('registrar', { handler: () => ({ ok: true, data: { pedido: 'P1' } }) });
  const agent = g.agent({
    name: 'Bench',
    provider: bareProvider(idleReply),
    tools: [],
    flows: [
      g.flow({
        id: 'seguimento',
        name: 'Seguimento',
        steps: [{ id: 'registra', do: 'registrar' }, { id: 'oi', say: 'Recebemos seu pedido.' }, { id: 'espera', wait: '24h' }, { id: 'lembrete', say: 'Tudo certo com o pedido?' }],
      }),
    ],
    clock,
  });
  const pair = async (i: number) => {
    const started = await agent.turn({ sessionId: `w${i}`, start: { flow: 'seguimento', key: `k${i}` }, session: emptySession(`w${i}`) });
    const woken = await agent.turn({ sessionId: `w${i}`, wake: started.schedule[0].key, session: started.session });
    return started.llmCalls + woken.llmCalls + (woken.messages.length === 1 ? 0 : Number.NaN);
  };
  const calls = await pair(-1);
  if (calls !== 0) throw new Error(`wakes: expected 0 calls and one follow-up, got ${calls}`);
  for (let i = 0; i < WARMUP; i += 1) await pair(i);
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < ITERATIONS; i += 1) await pair(i);
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const turns = ITERATIONS * 2;
  return {
    name: 'start + do + timer, then its wake',
    turnsPerSec: Math.round((turns / ms) * 1000),
    usPerTurn: Number(((ms * 1000) / turns).toFixed(1)),
    cpuUsPerTurn: Number(((used.user + used.system) / turns).toFixed(1)),
    calls: 0,
  };
}

async function main(): Promise<void> {
  const cases: Case[] = [
    { name: 'idle speaker (bare provider)', provider: bareProvider(idleReply), idle: true, expectCalls: 1 },
    { name: 'idle speaker (ScriptedProvider)', provider: scriptedProvider(idleReply), idle: true, expectCalls: 1 },
    { name: '5-step flow, 2 tool rounds (bare provider)', provider: bareProvider(flowReply), idle: false, expectCalls: 4 },
    { name: '5-step flow, 2 tool rounds (ScriptedProvider)', provider: scriptedProvider(flowReply), idle: false, expectCalls: 4 },
  ];
  const rows = [];
  for (const c of cases) rows.push(await measure(c));
  rows.push(await measureWakes());
  console.log(`engine bench: ${ITERATIONS} turns per case, Node ${process.version}`);
  console.table(rows.map((r) => ({ case: r.name, 'model calls/turn': r.calls, 'turns/s': r.turnsPerSec, 'µs/turn (wall)': r.usPerTurn, 'µs/turn (CPU)': r.cpuUsPerTurn })));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
