// Structured replies: reading JSON out of model text, and the instruction used where the
// server cannot enforce a schema itself (OpenAI json_object mode, Gemini with tools).

/**
 * Parses the reply text as a JSON object. Tolerates a Markdown code fence and prose around a
 * single object, which models add when the schema is only asked for in words. Returns
 * undefined when no object parses: the engine then treats the reply as unstructured.
 */
export function parseJsonObject(text: string | null): Record<string, unknown> | undefined {
  if (text === null) return undefined;
  const candidates = [text.trim()];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  if (fenced) candidates.push(fenced[1].trim());
  const first = text.indexOf('{');
  const last = text.lastIndexOf('}');
  if (first !== -1 && last > first) candidates.push(text.slice(first, last + 1));
  for (const candidate of candidates) {
    try {
      const value: unknown = JSON.parse(candidate);
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // try the next reading
    }
  }
  return undefined;
}

/** The words appended to the system instructions when the schema cannot be enforced. */
export function schemaInstruction(schema: { name: string; schema: object }, withTools: boolean): string {
  const when = withTools ? 'When you answer without calling a tool, your' : 'Your';
  return [
    `${when} reply must be a single JSON object (no prose, no code fence) named "${schema.name}" that matches this JSON Schema:`,
    JSON.stringify(schema.schema),
  ].join('\n');
}
