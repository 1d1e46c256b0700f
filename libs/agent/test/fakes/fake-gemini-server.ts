// A fake Gemini API server: `POST /v1beta/models/{model}:generateContent` (JSON) and
// `:streamGenerateContent?alt=sse` (SSE, one GenerateContentResponse per event, "\r\n\r\n"
// separated as Google sends them), with candidates/content/parts, usageMetadata and Google's
// error bodies `{ error: { code, message, status, details } }`.
import type { ServerResponse } from 'node:http';
import { drop, FakeHttpServer, hang, sendJson, sendSse, type RecordedRequest } from './fake-http-server';
import { splitText } from './fake-openai-server';

export type FakePart =
  | { text: string; thought?: boolean }
  | { functionCall: { name: string; args: Record<string, unknown> }; thoughtSignature?: string };

export interface FakeGeneration {
  parts?: FakePart[];
  finishReason?: string;
  blockReason?: string;
  usage?: { prompt: number; candidates: number; thoughts?: number; cached?: number };
}

export type GeminiStep =
  | { reply: FakeGeneration }
  | { error: { code: number; message: string; status: string; details?: unknown[]; headers?: Record<string, string> } }
  | { streamThenDrop: FakeGeneration }
  /** The first event, then silence. */
  | { streamThenHang: FakeGeneration }
  /** The first event, then an error event `{ error: { code, message, status } }`. */
  | { streamThenError: { generation: FakeGeneration; error: { code: number; message: string; status: string } } }
  | { hang: true }
  | { drop: true };

export interface GeminiCall {
  model: string;
  stream: boolean;
  apiKey: string | undefined;
  body: RecordedRequest['body'];
}

export type GeminiScript = (call: GeminiCall, index: number) => GeminiStep;

const ROUTE = /^\/v1beta\/models\/([^:/?]+):(generateContent|streamGenerateContent)(\?alt=sse)?$/;

export class FakeGeminiServer {
  private constructor(
    private readonly http: FakeHttpServer,
    readonly calls: GeminiCall[],
  ) {}

  /** Steps are used in order (the last one repeats), or a script decides per request. */
  static async start(script: GeminiStep[] | GeminiScript): Promise<FakeGeminiServer> {
    const pick: GeminiScript = Array.isArray(script) ? (_call, i) => script[Math.min(i, script.length - 1)] : script;
    const calls: GeminiCall[] = [];
    const http = await FakeHttpServer.start(async (req, res, index) => {
      const route = ROUTE.exec(req.url);
      if (req.method !== 'POST' || !route) {
        return sendJson(res, 404, { error: { code: 404, message: `Unknown path ${req.url}`, status: 'NOT_FOUND' } });
      }
      const apiKey = req.headers['x-goog-api-key'];
      const call: GeminiCall = { model: route[1], stream: route[2] === 'streamGenerateContent', apiKey: Array.isArray(apiKey) ? apiKey[0] : apiKey, body: req.body };
      calls.push(call);
      await answer(pick(call, index), call, res);
    });
    return new FakeGeminiServer(http, calls);
  }

  get baseUrl(): string {
    return this.http.url;
  }

  get bodies(): RecordedRequest['body'][] {
    return this.calls.map((c) => c.body);
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

async function answer(step: GeminiStep, call: GeminiCall, res: ServerResponse): Promise<void> {
  if ('hang' in step) return hang();
  if ('drop' in step) return drop(res);
  if ('error' in step) {
    const { code, message, status, details, headers } = step.error;
    return sendJson(res, code, { error: { code, message, status, ...(details ? { details } : {}) } }, headers);
  }
  if ('streamThenDrop' in step) {
    const events = streamEvents(step.streamThenDrop, call.model);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(`data: ${events[0]}\r\n\r\n`);
    // Half an event, then the connection goes.
    res.write(`data: {"candidates": [{"content": {"parts": [{"te`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    return drop(res);
  }
  if ('streamThenHang' in step) {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(`data: ${streamEvents(step.streamThenHang, call.model)[0]}\r\n\r\n`);
    return hang();
  }
  if ('streamThenError' in step) {
    const first = streamEvents(step.streamThenError.generation, call.model)[0];
    return sendSse(res, [first, JSON.stringify({ error: step.streamThenError.error })], '\r\n\r\n');
  }
  if (call.stream) return sendSse(res, streamEvents(step.reply, call.model), '\r\n\r\n');
  return sendJson(res, 200, response(step.reply, step.reply.parts ?? [], call.model, true));
}

function response(gen: FakeGeneration, parts: FakePart[], model: string, last: boolean) {
  const candidate = gen.blockReason
    ? undefined
    : { content: { role: 'model', parts }, index: 0, ...(last ? { finishReason: gen.finishReason ?? 'STOP' } : {}) };
  return {
    ...(candidate ? { candidates: [candidate] } : {}),
    ...(gen.blockReason ? { promptFeedback: { blockReason: gen.blockReason } } : {}),
    ...(gen.usage && last ? { usageMetadata: usageMetadata(gen.usage) } : {}),
    modelVersion: model,
    responseId: 'fake-response',
  };
}

/** One event per word of text and one per function call; usage and finishReason at the end. */
function streamEvents(gen: FakeGeneration, model: string): string[] {
  const pieces: FakePart[] = [];
  for (const part of gen.parts ?? []) {
    if ('text' in part) for (const word of splitText(part.text)) pieces.push({ ...part, text: word });
    else pieces.push(part);
  }
  if (pieces.length === 0) return [JSON.stringify(response(gen, [], model, true))];
  return pieces.map((piece, i) => JSON.stringify(response(gen, [piece], model, i === pieces.length - 1)));
}

function usageMetadata(u: NonNullable<FakeGeneration['usage']>) {
  return {
    promptTokenCount: u.prompt,
    candidatesTokenCount: u.candidates,
    totalTokenCount: u.prompt + u.candidates + (u.thoughts ?? 0),
    ...(u.thoughts !== undefined ? { thoughtsTokenCount: u.thoughts } : {}),
    ...(u.cached !== undefined ? { cachedContentTokenCount: u.cached } : {}),
  };
}
