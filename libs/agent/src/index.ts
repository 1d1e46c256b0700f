// Public surface of @falai/agent.
export * from './provider';
export * from './types';
