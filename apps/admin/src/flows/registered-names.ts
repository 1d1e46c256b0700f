// Action and condition names an agent's do steps and predicates may use, as the API's
// GET /v1/admin/flow-schema lists them (the engine's flowSpecSchema: `actionName` and
// `conditionName` are enums of the registered names when the host passes them).

export interface RegisteredNames {
  actions: string[];
  conditions: string[];
}

type Definition = { enum?: unknown } | undefined;

const enumOf = (definition: Definition): string[] =>
  Array.isArray(definition?.enum) ? definition.enum.filter((n): n is string => typeof n === 'string') : [];

export function namesFromFlowSchema(schema: unknown): RegisteredNames {
  const definitions = ((schema as { definitions?: Record<string, Definition> } | null)?.definitions ?? {}) as Record<string, Definition>;
  return { actions: enumOf(definitions.actionName), conditions: enumOf(definitions.conditionName) };
}
