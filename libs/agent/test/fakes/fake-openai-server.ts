// A fake OpenAI Chat Completions server: `POST /v1/chat/completions`, answering with a JSON
// completion or, when the request says `stream: true`, the same completion as SSE chunks
// (`data: {chunk}` … `data: [DONE]`), tool calls split into index-keyed argument fragments.
import type { ServerResponse } from 'node:http';
import { drop, FakeHttpServer, hang, sendJson, sendSse, type RecordedRequest } from './fake-http-server';

export interface FakeCompletion {
  content?: string | null;
  toolCalls?: { id?: string; name: string; arguments: string }[];
  refusal?: string;
  finishReason?: string;
  usage?: { prompt: number; completion: number; cached?: number };
}

export type OpenAIStep =
  | { reply: FakeCompletion }
  | { error: { status: number; message: string; type?: string; code?: string | null; headers?: Record<string, string> } }
  /** A stream that sends its first chunks and then loses the connection. */
  | { streamThenDrop: FakeCompletion }
  /** A stream that sends its first chunks and then goes silent. */
  | { streamThenHang: FakeCompletion }
  /** A stream that sends its first chunks and then an error event, as OpenAI does mid-stream. */
  | { streamThenError: { completion: FakeCompletion; error: { message: string; type: string; code?: string | null } } }
  | { hang: true }
  | { drop: true };

export type OpenAIScript = (body: RecordedRequest['body'], index: number) => OpenAIStep;

export class FakeOpenAIServer {
  private constructor(private readonly http: FakeHttpServer) {}

  /** Steps are used in order (the last one repeats), or a script decides per request. */
  static async start(script: OpenAIStep[] | OpenAIScript): Promise<FakeOpenAIServer> {
    const pick: OpenAIScript = Array.isArray(script) ? (_body, i) => script[Math.min(i, script.length - 1)] : script;
    const http = await FakeHttpServer.start(async (req, res, index) => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        return sendJson(res, 404, { error: { message: `Unknown request URL: ${req.method} ${req.url}`, type: 'invalid_request_error', code: 'unknown_url' } });
      }
      await answer(pick(req.body, index), req.body, res, index);
    });
    return new FakeOpenAIServer(http);
  }

  get baseURL(): string {
    return `${this.http.url}/v1`;
  }

  get requests(): RecordedRequest[] {
    return this.http.requests;
  }

  /** The request bodies received, in order. */
  get bodies(): RecordedRequest['body'][] {
    return this.http.requests.map((r) => r.body);
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

async function answer(step: OpenAIStep, body: RecordedRequest['body'], res: ServerResponse, index: number): Promise<void> {
  if ('hang' in step) return hang();
  if ('drop' in step) return drop(res);
  if ('error' in step) {
    const { status, message, type = 'invalid_request_error', code = null, headers } = step.error;
    return sendJson(res, status, { error: { message, type, param: null, code } }, headers);
  }
  const id = `chatcmpl-fake-${index}`;
  if ('streamThenDrop' in step) {
    const chunks = streamChunks(step.streamThenDrop, body, id);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const chunk of chunks.slice(0, 2)) res.write(`data: ${chunk}\n\n`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    return drop(res);
  }
  if ('streamThenHang' in step) {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const chunk of streamChunks(step.streamThenHang, body, id).slice(0, 2)) res.write(`data: ${chunk}\n\n`);
    return hang();
  }
  if ('streamThenError' in step) {
    const chunks = streamChunks(step.streamThenError.completion, body, id).slice(0, 2);
    const { message, type, code = null } = step.streamThenError.error;
    return sendSse(res, [...chunks, JSON.stringify({ error: { message, type, param: null, code } })]);
  }
  if (body?.stream) return sendSse(res, [...streamChunks(step.reply, body, id), '[DONE]']);
  return sendJson(res, 200, completion(step.reply, body, id));
}

function completion(reply: FakeCompletion, body: RecordedRequest['body'], id: string) {
  const toolCalls = (reply.toolCalls ?? []).map((call, i) => ({
    id: call.id ?? `call_${i}`,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  return {
    id,
    object: 'chat.completion',
    created: 1_764_000_000,
    model: body?.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.content ?? null,
          refusal: reply.refusal ?? null,
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: reply.finishReason ?? (toolCalls.length ? 'tool_calls' : 'stop'),
      },
    ],
    ...(reply.usage ? { usage: usage(reply.usage) } : {}),
  };
}

/** The chunks a real server would stream for `reply`. */
function streamChunks(reply: FakeCompletion, body: RecordedRequest['body'], id: string): string[] {
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    JSON.stringify({ id, object: 'chat.completion.chunk', created: 1_764_000_000, model: body?.model, choices, ...extra });
  const delta = (d: Record<string, unknown>, finish: string | null = null) => chunk([{ index: 0, delta: d, logprobs: null, finish_reason: finish }]);

  const out = [delta({ role: 'assistant', content: '' })];
  for (const piece of splitText(reply.content ?? '')) out.push(delta({ content: piece }));
  if (reply.refusal) out.push(delta({ refusal: reply.refusal }));
  const calls = reply.toolCalls ?? [];
  // Heads of every call first, then the argument fragments interleaved across calls: the client
  // must join fragments by `index`, not by arrival order.
  calls.forEach((call, i) => out.push(delta({ tool_calls: [{ index: i, id: call.id ?? `call_${i}`, type: 'function', function: { name: call.name, arguments: '' } }] })));
  const halves = calls.map((call) => [call.arguments.slice(0, Math.ceil(call.arguments.length / 2)), call.arguments.slice(Math.ceil(call.arguments.length / 2))]);
  for (const part of [0, 1]) {
    halves.forEach((h, i) => {
      if (h[part]) out.push(delta({ tool_calls: [{ index: i, function: { arguments: h[part] } }] }));
    });
  }
  out.push(delta({}, reply.finishReason ?? (calls.length ? 'tool_calls' : 'stop')));
  if (body?.stream_options?.include_usage && reply.usage) out.push(chunk([], { usage: usage(reply.usage) }));
  return out;
}

function usage(u: NonNullable<FakeCompletion['usage']>) {
  return {
    prompt_tokens: u.prompt,
    completion_tokens: u.completion,
    total_tokens: u.prompt + u.completion,
    prompt_tokens_details: { cached_tokens: u.cached ?? 0 },
  };
}

/** Splits text into word-sized pieces, spaces kept, so deltas join back to the exact text. */
export function splitText(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}
