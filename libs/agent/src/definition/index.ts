export { type ConfigPath, toPointer } from './config-path';
export {
  FlowConfigurationError,
  isFlowConfigurationError,
  type FlowConfigurationCode,
  type FlowConfigurationProblem,
  type FlowWarning,
  type FlowWarningCode,
} from './errors';
export {
  coerceValue,
  coerceValues,
  extractMode,
  isKnown,
  type CoerceResult,
  type CoercedValues,
  type DroppedCode,
  type DroppedValue,
} from './coerce';
export { validateFlow, END_STEP, type ValidateOptions, type ValidationReport } from './validate-flow';
export { validateFields, RESERVED_FIELD_SLUGS } from './validate-fields';
export { validateTool } from './validate-tool';
export { validateAgentDefinition, validateFlows, validateIdle, type AgentDefinition } from './validate-agent';
export { fromSpec, toSpec, stepKind, type FromSpecOptions } from './spec';
export { flowSpecSchema } from './spec-schema';
