export * from './agent-config';
export * from './agent-config.schema';
export * from './build-engine-agent';
export * from './concierge';
export * from './load-agent';
export * from './fallback-message';
export * from './provider-endpoint';
export * from './templates';
