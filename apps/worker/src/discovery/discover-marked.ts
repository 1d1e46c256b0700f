import type { Logger } from '@nestjs/common';
import type { DiscoverableDecorator, DiscoveryService } from '@nestjs/core';

/** One provider marked with a discovery decorator: the decorator's options, the instance, its class name. */
export interface MarkedProvider<O, H> {
  options: O;
  instance: H;
  className: string;
}

export interface MarkedKind<O, H, T> {
  /** The decorator's discovery marker (`DiscoveryService.createDecorator`). */
  marker: DiscoverableDecorator<O>;
  /** The option that names a provider; names are unique. */
  nameOf: (options: O) => string;
  /** The method every marked provider must have. */
  method: keyof H & string;
  /** What the start-up log line calls them ("tools" → "tools registered: a, b"). */
  plural: string;
  /** The error for a provider without `method`. */
  invalid: (className: string, name: string) => Error;
  /** The error for a name two providers declare (`classes`: the first one's, then this one's). */
  duplicate: (name: string, classes: string[]) => Error;
  /** What the registry keeps for a provider. */
  build: (found: MarkedProvider<O, H>) => T;
}

/**
 * The Nest providers marked with `kind.marker`, each built into what its registry keeps, by
 * name in discovery order. Throws `kind.invalid` for a provider without `kind.method` and
 * `kind.duplicate` for a name already taken; logs the sorted names on `logger`.
 */
export function discoverMarked<O, H, T>(discovery: DiscoveryService, logger: Logger, kind: MarkedKind<O, H, T>): Map<string, T> {
  const found = new Map<string, T>();
  const classOf = new Map<string, string>();
  for (const wrapper of discovery.getProviders({ metadataKey: kind.marker.KEY })) {
    const options = discovery.getMetadataByDecorator(kind.marker, wrapper) as O;
    const instance = wrapper.instance as H | undefined;
    const className = wrapper.metatype?.name ?? String(wrapper.name);
    const name = kind.nameOf(options);
    if (!instance || typeof instance[kind.method] !== 'function') throw kind.invalid(className, name);
    const existing = classOf.get(name);
    if (existing !== undefined) throw kind.duplicate(name, [existing, className]);
    classOf.set(name, className);
    found.set(name, kind.build({ options, instance, className }));
  }
  logger.log(`${kind.plural} registered: ${[...found.keys()].sort().join(', ') || '(none)'}`);
  return found;
}
