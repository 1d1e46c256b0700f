// One tool call through the four gates of tool.md, in order. Nothing here throws: every
// failure becomes the text the model reads.
import { isPlainObject } from '../definition/json-checks';
import type { ToolGate } from '../types/turn';
import type { AnyTool, ToolCtx } from '../types/tool';
import {
  permissionError,
  serializeValue,
  thrownError,
  truncate,
  unavailableError,
  validationError,
  errorMessage,
} from './serialize';

export interface PreparedCall {
  /** `call-<round>-<index>`. */
  id: string;
  index: number;
  name: string;
  args: Record<string, unknown>;
  /** Set when the arguments arrived as a string that is not a JSON object. */
  parseError?: string;
  /** The offered tool answering this name; absent when the name is not in this call's list. */
  tool?: AnyTool;
}

export interface GateResult {
  gate: ToolGate;
  /** What the model reads. */
  content: string;
  /** The handler's `data` patch, as given. */
  data?: Record<string, unknown>;
  /** The arguments the handler saw (after a validator's `correctedInput`). */
  args: Record<string, unknown>;
}

export async function passGates(call: PreparedCall, ctx: ToolCtx): Promise<GateResult> {
  const { tool } = call;
  let args = call.args;
  if (!tool) return { gate: 'unavailable', content: unavailableError(call.name), args };
  if (call.parseError !== undefined) {
    return { gate: 'invalid', content: validationError(call.parseError, undefined), args };
  }

  if (tool.validateInput) {
    try {
      const verdict = await tool.validateInput(args, ctx);
      if (!verdict.valid) return { gate: 'invalid', content: validationError(verdict.error, verdict.correctedInput), args };
      if (isPlainObject(verdict.correctedInput)) args = verdict.correctedInput;
    } catch (err) {
      return { gate: 'invalid', content: validationError(errorMessage(err), undefined), args };
    }
  }

  if (tool.checkPermissions) {
    try {
      const verdict = await tool.checkPermissions(args, ctx);
      if (!verdict.allowed) return { gate: 'denied', content: permissionError(verdict.reason), args };
    } catch (err) {
      return { gate: 'denied', content: permissionError(errorMessage(err)), args };
    }
  }

  try {
    const returned: unknown = await tool.handler(args, ctx);
    // "Returning nothing counts as {}"; anything that is not an object is read the same way.
    const result = isPlainObject(returned) ? returned : {};
    const content = truncate(serializeValue(result.value), tool.maxResultSizeChars);
    // Copied here, inside the try: a getter that throws is the tool's failure, not the turn's.
    const data = isPlainObject(result.data) ? { ...result.data } : undefined;
    return { gate: 'ok', content, args, ...(data ? { data } : {}) };
  } catch (err) {
    return { gate: 'threw', content: thrownError(err), args };
  }
}

/** Safe: not destructive, and `isConcurrencySafe` (else `isReadOnly`, else false) says yes. */
export function isSafe(call: PreparedCall): boolean {
  const { tool } = call;
  if (!tool || call.parseError !== undefined) return false;
  try {
    if (tool.isDestructive?.(call.args)) return false;
    if (tool.isConcurrencySafe) return tool.isConcurrencySafe(call.args) === true;
    if (tool.isReadOnly) return tool.isReadOnly(call.args) === true;
    return false;
  } catch {
    // A predicate that throws cannot vouch for the call: it runs alone.
    return false;
  }
}
