export * from './bull-backend';
export * from './runtime-schema';
