export type { components, operations, paths, webhooks } from './generated/schema';
export { createSwitchboardClient, type SwitchboardClient, type SwitchboardClientOptions } from './create-client';
export { requestRoute, SwitchboardApiError, type RouteInit } from './request-route';
export type { DeclaredAnswer, DeclaredBody, DeclaredQuery, Method, Operation, OrElse, PathParams, PathsWith } from './routes';
