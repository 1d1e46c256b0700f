export * from './webhook-events';
export * from './webhook-secret';
export * from './event-delivery';
export * from './webhook-openapi';
export * from './webhook-limits';
export * from './channel-adapters';
