export * from './agent-config';
export * from './agent-config.schema';
export * from './build-engine-agent';
export * from './concierge';
export * from './provider-endpoint';
