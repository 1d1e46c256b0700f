import type { paths } from './generated/schema';

// Types that read a route out of the generated `paths`: the console and the widget can name
// only a method and path the API declares. Where the document does not describe a part yet
// (most admin answers today), the caller's own shape stands in until it does; once declared,
// the declared type wins, so a field the API does not send stops compiling.

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Every path the API declares with `method`. */
export type PathsWith<M extends Method> = {
  [P in keyof paths]: [NonNullable<paths[P][M]>] extends [never] ? never : P;
}[keyof paths];

export type Operation<M extends Method, P extends PathsWith<M>> = NonNullable<paths[P][M]>;

/** `{ id: string }` for '/v1/admin/agents/{id}': read from the path itself, always complete. */
export type PathParams<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? { [K in Name]: string | number } & PathParams<Rest>
  : unknown;

type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;

/** The JSON body of the route's 2xx answers, never when the document does not describe one. */
export type DeclaredAnswer<O> = O extends { responses: infer R }
  ? { [S in keyof R]: S extends 200 | 201 | 202 ? Json<R[S]> : never }[keyof R]
  : never;

export type DeclaredBody<O> = O extends { requestBody?: infer B } ? Json<NonNullable<B>> : never;

export type DeclaredQuery<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** T when the document declares it, else the caller's stand-in. */
export type OrElse<T, Fallback> = [T] extends [never] ? Fallback : T;
