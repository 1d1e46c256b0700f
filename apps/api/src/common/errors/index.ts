export * from './api-error';
export * from './http-errors';
