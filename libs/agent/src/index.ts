// Public surface of @falai/agent.
export * from './provider';
export * from './types';
export { falai, type Falai, type FalaiStart } from './builder/falai';
export * from './scripted';
export { TurnInputError } from './turn/session';
export { RETRY_LADDER_MS } from './turn/failures';
export { fakeClock, systemClock, type FakeClock } from './clock';
export { FlowConfigurationError, isFlowConfigurationError } from './definition/errors';
export { validateFlow } from './definition/validate-flow';
export { fromSpec, toSpec } from './definition/spec';
export * from './providers';
