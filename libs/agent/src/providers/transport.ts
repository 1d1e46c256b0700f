/**
 * The fetch a provider's SDK sends its requests through. The host passes one that applies its
 * outbound rules (which addresses may be reached); the engine itself only hands it on.
 */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
