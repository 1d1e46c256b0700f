// ModelRequest → Chat Completions request body. Pure: the fake server tests assert its output
// on the wire.
import type {
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions/completions';
import type { HistoryItem, ModelRequest } from '../../provider';
import { schemaInstruction } from '../structured';

export type ResponseFormatMode = 'json_schema' | 'json_object';

export interface OpenAIRequestOptions {
  model: string;
  responseFormat: ResponseFormatMode;
  /** OpenAI's strict structured outputs; needs every property required and no extras. */
  strictSchema: boolean;
  /**
   * Where the turn's `context` goes: `last` as a system message after the history (OpenAI, whose
   * prompt cache then covers tools, schema, system prompt and the conversation so far); `system`
   * at the end of the leading system prompt, for compatible servers whose chat templates refuse a
   * system message anywhere but first.
   */
  contextAt: 'last' | 'system';
  /**
   * Declare the agent's whole tool set (`req.declared`) and narrow the callable ones to `req.tools`
   * with `tool_choice: allowed_tools`, so the tools are one cacheable prefix at every step. OpenAI
   * itself; off for compatible servers, which may not know `allowed_tools`.
   */
  allowedTools: boolean;
}

/**
 * The body in the order OpenAI caches a prompt's prefix: tools and the reply schema (rendered
 * before the messages), the stable system prompt, the history, and only then what this turn adds.
 */
export function toChatCompletionBody(req: ModelRequest, options: OpenAIRequestOptions): ChatCompletionCreateParamsBase {
  const jsonObjectMode = req.schema !== undefined && options.responseFormat === 'json_object';
  const context = req.context?.trim() ? req.context : undefined;
  // json_object mode enforces JSON but not the shape: the shape is asked for in words.
  const system = joinSections(
    req.system,
    jsonObjectMode && req.schema ? schemaInstruction(req.schema, req.tools.length > 0) : '',
    options.contextAt === 'system' ? (context ?? '') : '',
  );
  const trailing = options.contextAt === 'last' && context ? [{ role: 'system' as const, content: context }] : [];

  const body: ChatCompletionCreateParamsBase = {
    model: options.model,
    messages: [...(system.trim() ? [{ role: 'system' as const, content: system }] : []), ...req.history.map(toMessage), ...trailing],
  };
  if (req.tools.length > 0) {
    const declared = options.allowedTools && req.declared?.length ? req.declared : undefined;
    body.tools = (declared ?? req.tools).map(toTool);
    if (declared) body.tool_choice = { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: allowedList(req.tools) } };
    body.parallel_tool_calls = true;
  }
  if (req.schema) {
    body.response_format = jsonObjectMode
      ? { type: 'json_object' }
      : {
          type: 'json_schema',
          json_schema: { name: schemaName(req.schema.name), schema: req.schema.schema as Record<string, unknown>, strict: options.strictSchema },
        };
  }
  return body;
}

function toMessage(item: HistoryItem): ChatCompletionMessageParam {
  switch (item.role) {
    case 'user':
      return { role: 'user', content: item.content };
    case 'assistant':
      if (!item.tool_calls?.length) return { role: 'assistant', content: item.content ?? '' };
      return {
        role: 'assistant',
        content: item.content,
        tool_calls: item.tool_calls.map((call) => ({
          id: call.id,
          type: 'function' as const,
          function: { name: call.name, arguments: JSON.stringify(call.arguments ?? {}) },
        })),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: item.tool_call_id, content: item.content };
  }
}

function toTool(tool: ModelRequest['tools'][number]): ChatCompletionTool {
  return {
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      // A function without parameters still needs an object schema on most servers.
      parameters: (tool.parameters ?? { type: 'object', properties: {} }) as Record<string, unknown>,
    },
  };
}

/** The step's allow-list in `allowed_tools` form: each name once (tool ids may repeat, tool.md). */
function allowedList(tools: ModelRequest['tools']): { type: 'function'; function: { name: string } }[] {
  return [...new Set(tools.map((tool) => tool.name))].map((name) => ({ type: 'function' as const, function: { name } }));
}

/** OpenAI allows `^[a-zA-Z0-9_-]{1,64}$` for a schema name. */
function schemaName(name: string): string {
  const safe = name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return safe || 'reply';
}

function joinSections(...sections: string[]): string {
  return sections.filter((s) => s.trim() !== '').join('\n\n');
}
