// Every public type of the engine.
export * from './fields';
export * from './tool';
export * from './action';
export * from './flow';
export * from './spec';
export * from './session';
export * from './outcome';
export * from './turn';
export * from './agent';
