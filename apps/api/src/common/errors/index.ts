export * from './api-error';
export * from './dependency-errors';
export * from './http-errors';
