// Public surface of @falai/agent.
export * from './provider';
export * from './types';
export { falai, type Falai, type FalaiStart } from './builder/falai';
export * from './scripted';
export { TurnInputError } from './turn/session';
export { failureCode, RETRY_LADDER_MS } from './turn/failures';
export { pendingWakes } from './turn/pending-wakes';
export * from './definition';
export * from './store';
export * from './clock';
export * from './history';
export * from './providers';
