export * from './agent-config';
