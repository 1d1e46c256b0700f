export { MemoryStore } from './memory-store';
export { newSession } from './new-session';
export { SessionConflictError, isSessionConflictError, InvalidSaveError } from './errors';
