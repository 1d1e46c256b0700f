// The model of tool.md's Concierge example, played at the wire level: these rules read the
// request exactly as the SDK sent it and answer as the real API would. Understand call → JSON
// scores and fields; speak round 1 → a tool call; round 2 (after the tool answered) → text.
import type { GeminiCall, GeminiStep } from './fake-gemini-server';
import type { OpenAIStep } from './fake-openai-server';

interface Judged {
  /** The last customer message. */
  said: string;
  /** The reply schema's properties. */
  properties: Record<string, unknown>;
  tools: string[];
  /** The last history item is a tool result: the model now answers in words. */
  afterTool: { name: string; output: unknown } | undefined;
}

/** The answer the Concierge model gives, independent of the wire format. */
type Move = { json: Record<string, unknown> } | { call: { name: string; args: Record<string, unknown> } };

function decide(j: Judged): Move {
  if ('flows' in j.properties || 'fields' in j.properties) {
    const json: Record<string, unknown> = {};
    if ('flows' in j.properties) json.flows = { hospedagem: /quarto|reserv|hotel/i.test(j.said) ? 90 : 0 };
    if ('fields' in j.properties) {
      const wanted = Object.keys(((j.properties.fields as { properties?: object }).properties ?? {}) as object);
      const city = /\bem ([A-ZÀ-Ú][\wÀ-ú]+)/.exec(j.said)?.[1] ?? null;
      json.fields = Object.fromEntries(wanted.map((slug) => [slug, slug === 'cidade' ? city : null]));
    }
    return { json };
  }
  const envelope = (message: string) => ({
    json: Object.fromEntries([['message', message], ...Object.keys(j.properties).filter((k) => k !== 'message').map((k) => [k, null])]),
  });
  if (j.afterTool?.name === 'preco') {
    const price = (j.afterTool.output as { precoNoite?: number })?.precoNoite;
    return envelope(`A diária em Curitiba sai por R$ ${price}. Posso reservar?`);
  }
  if (j.afterTool?.name === 'reservar') {
    const code = (j.afterTool.output as { codigo?: string })?.codigo;
    return envelope(`Pronto! Sua reserva está confirmada. Código: ${code}.`);
  }
  if (j.tools.includes('preco')) return { call: { name: 'preco', args: { cidade: 'Curitiba' } } };
  if (j.tools.includes('reservar') && /\b(sim|pode|reserv)/i.test(j.said)) return { call: { name: 'reservar', args: { cidade: 'Curitiba' } } };
  return envelope('Em que posso ajudar?');
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** Chat Completions requests → Concierge answers. */
export function conciergeOpenAI(body: any): OpenAIStep { // eslint-disable-line @typescript-eslint/no-explicit-any -- wire JSON
  const messages: any[] = body.messages; // eslint-disable-line @typescript-eslint/no-explicit-any -- wire JSON
  const last = messages[messages.length - 1];
  const said = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const schema = body.response_format?.json_schema?.schema ?? {};
  let afterTool: Judged['afterTool'];
  if (last.role === 'tool') {
    const call = messages.flatMap((m) => m.tool_calls ?? []).find((c: { id: string }) => c.id === last.tool_call_id);
    afterTool = { name: call?.function?.name, output: parse(last.content) };
  }
  // Like the model: only the tools `allowed_tools` lets it call, when the request narrows them.
  const callable = body.tool_choice?.allowed_tools?.tools ?? body.tools ?? [];
  const move = decide({ said, properties: schema.properties ?? {}, tools: callable.map((t: any) => t.function.name), afterTool }); // eslint-disable-line @typescript-eslint/no-explicit-any -- wire JSON
  if ('call' in move) {
    return { reply: { toolCalls: [{ id: 'call_abc', name: move.call.name, arguments: JSON.stringify(move.call.args) }], usage: { prompt: 200, completion: 12, cached: 64 } } };
  }
  return { reply: { content: JSON.stringify(move.json), usage: { prompt: 180, completion: 20, cached: 0 } } };
}

/** Gemini generateContent requests → Concierge answers. */
export function conciergeGemini(call: GeminiCall): GeminiStep {
  const contents: any[] = call.body.contents; // eslint-disable-line @typescript-eslint/no-explicit-any -- wire JSON
  const last = contents[contents.length - 1];
  const said = [...contents].reverse().find((c) => c.role === 'user' && c.parts.some((p: { text?: string }) => p.text))?.parts[0].text ?? '';
  const answered = last.parts.find((p: { functionResponse?: unknown }) => p.functionResponse)?.functionResponse;
  const declared: string[] = (call.body.tools ?? []).flatMap((t: any) => t.functionDeclarations.map((d: { name: string }) => d.name)); // eslint-disable-line @typescript-eslint/no-explicit-any -- wire JSON
  // Like the model: only the functions `allowedFunctionNames` lets it call, when the request narrows them.
  const tools: string[] = call.body.toolConfig?.functionCallingConfig?.allowedFunctionNames ?? declared;
  // With tools, the schema is asked for in words at the end of the last user turn; only its property names matter here.
  const words = last.parts.map((p: { text?: string }) => p.text ?? '').join('\n');
  const schema = call.body.generationConfig?.responseJsonSchema ?? schemaFromWords(words);
  const move = decide({
    said,
    properties: schema.properties ?? {},
    tools,
    afterTool: answered ? { name: answered.name, output: answered.response.output } : undefined,
  });
  if ('call' in move) {
    return { reply: { parts: [{ functionCall: { name: move.call.name, args: move.call.args }, thoughtSignature: 'c2ln' }], usage: { prompt: 200, candidates: 10, thoughts: 5 } } };
  }
  return { reply: { parts: [{ text: 'Vou responder em JSON.', thought: true }, { text: JSON.stringify(move.json) }], usage: { prompt: 180, candidates: 20 } } };
}

function schemaFromWords(text: string): { properties?: Record<string, unknown> } {
  const line = text.split('\n').reverse().find((l) => l.startsWith('{"type":"object"'));
  return line ? JSON.parse(line) : {};
}
