export * from './types';
export * from './provider-error';
