// ModelRequest → @google/genai generateContent parameters. Pure apart from reading the
// signature cache; the fake server tests assert the body it produces on the wire.
import type { Content, FunctionCallingConfigMode, FunctionDeclaration, GenerateContentConfig, Part } from './sdk';
import type { HistoryItem, ModelRequest, ToolDeclaration } from '../../provider';
import { schemaInstruction } from '../structured';
import { SKIP_SIGNATURE, type ThoughtSignatures } from './thought-signatures';

export interface GeminiRequest {
  model: string;
  contents: Content[];
  config: GenerateContentConfig;
}

export interface GeminiRequestOptions {
  model: string;
  signatures: ThoughtSignatures;
  requiresSignatures: boolean;
}

/**
 * Gemini cannot be asked for a JSON response (responseMimeType) and offered functions in the
 * same request on the 2.x models. So: no tools → the schema is enforced by the server
 * (responseJsonSchema); tools → the tools are offered and the schema is asked for in words
 * after the history, and the reply text parsed (docs/providers.md).
 */
export function toGeminiRequest(req: ModelRequest, options: GeminiRequestOptions): GeminiRequest {
  const withTools = req.tools.length > 0;
  // Gemini's implicit cache reuses the request's prefix: the system instruction and the tools
  // (the agent's whole set, the same at every step) come first, the history next, and this
  // turn's `context` last of all, with the step's reply schema when it is asked for in words.
  const schemaInWords = req.schema && withTools ? schemaInstruction(req.schema, true) : '';
  const config: GenerateContentConfig = {};
  if (req.system.trim()) config.systemInstruction = req.system;
  if (withTools) {
    const declared = req.declared?.length ? req.declared : undefined;
    config.tools = [{ functionDeclarations: (declared ?? req.tools).map(toFunctionDeclaration) }];
    // VALIDATED: the model answers or calls, and only the step's tools (ANY would force a call).
    if (declared) config.toolConfig = { functionCallingConfig: { mode: VALIDATED, allowedFunctionNames: [...new Set(req.tools.map((t) => t.name))] } };
  } else if (req.schema) {
    config.responseMimeType = 'application/json';
    config.responseJsonSchema = req.schema.schema;
  }
  return { model: options.model, contents: withContext(toContents(req.history, options), joinSections(req.context ?? '', schemaInWords)), config };
}

/** The SDK's FunctionCallingConfigMode.VALIDATED, without loading the SDK to read its enum. */
const VALIDATED = 'VALIDATED' as FunctionCallingConfigMode;

function toFunctionDeclaration(tool: ToolDeclaration): FunctionDeclaration {
  return {
    name: tool.name,
    ...(tool.description ? { description: tool.description } : {}),
    // Standard JSON Schema, passed as given (tool.md); not the OpenAPI subset of `parameters`.
    ...(tool.parameters ? { parametersJsonSchema: tool.parameters } : {}),
  };
}

/**
 * The turn's context after the history. Gemini has no system turn mid-conversation: it is a text
 * part of the last user turn (the customer's message or the tool results), or a user turn of its
 * own after the model's.
 */
function withContext(contents: Content[], context: string | undefined): Content[] {
  if (!context?.trim()) return contents;
  const part: Part = { text: context };
  const last = contents[contents.length - 1];
  if (last?.role === 'user') last.parts = [...(last.parts ?? []), part];
  else contents.push({ role: 'user', parts: [part] });
  return contents;
}

function toContents(history: HistoryItem[], options: GeminiRequestOptions): Content[] {
  const contents: Content[] = [];
  for (const item of history) {
    switch (item.role) {
      case 'user':
        contents.push({ role: 'user', parts: [{ text: item.content }] });
        break;
      case 'assistant': {
        const parts: Part[] = [];
        if (item.content) parts.push({ text: item.content });
        (item.tool_calls ?? []).forEach((call, index) => {
          const part: Part = { functionCall: { name: call.name, args: call.arguments ?? {} } };
          const signature = options.signatures.lookup(call.name, call.arguments);
          // In a parallel batch only the first call carries the signature.
          if (signature) part.thoughtSignature = signature;
          else if (index === 0 && options.requiresSignatures) part.thoughtSignature = SKIP_SIGNATURE;
          parts.push(part);
        });
        if (parts.length > 0) contents.push({ role: 'model', parts });
        break;
      }
      case 'tool': {
        const part: Part = { functionResponse: { name: item.name, response: toFunctionResponse(item.content) } };
        // The answers to one batch of calls travel together in one user turn.
        const last = contents[contents.length - 1];
        if (last?.role === 'user' && last.parts?.every((p) => p.functionResponse)) last.parts.push(part);
        else contents.push({ role: 'user', parts: [part] });
        break;
      }
    }
  }
  // Gemini refuses a request without contents (400), which would end the run as refused; a
  // wake or an opening message can come with no history, so the model gets a neutral turn.
  if (contents.length === 0) contents.push({ role: 'user', parts: [{ text: EMPTY_CONVERSATION }] });
  return contents;
}

export const EMPTY_CONVERSATION = '(The conversation has no messages yet.)';

/**
 * A function response must be an object. Google's convention: `output` for the result,
 * `error` for a failure; the engine's gate errors are `{"error": "..."}`.
 */
function toFunctionResponse(content: string): Record<string, unknown> {
  let value: unknown = content;
  try {
    value = JSON.parse(content);
  } catch {
    // plain text result
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length > 0 && keys.every((k) => k === 'error' || k === 'correctedInput')) return value as Record<string, unknown>;
  }
  return { output: value };
}

function joinSections(...sections: string[]): string {
  return sections.filter((s) => s.trim() !== '').join('\n\n');
}
