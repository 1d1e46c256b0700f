export * from './queue-names';
export * from './jobs';
export * from './job-options';
export * from './connection';
export * from './backends';
export * from './http-tool-test';
export * from './webhook-test';
export * from './flow-inputs';
