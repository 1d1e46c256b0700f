// Small helpers shared by the definition validators: JSON type tests, how a value is named in
// a message, and a scope that knows where it is (for messages) and its path (for APIs).
import type { ConfigPath } from './config-path';
import { FlowConfigurationError, type FlowConfigurationCode, type FlowWarning, type FlowWarningCode } from './errors';

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function hasOwn(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/** How a wrong value reads in a message: primitives as JSON, containers by their kind. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  return `a ${typeof value}`;
}

export function quote(text: string): string {
  return JSON.stringify(text);
}

/** `"a", "b", "c"`, cut after `max` names so a message stays readable. */
export function listNames(names: readonly string[], max = 12): string {
  const shown = names.slice(0, max).map(quote).join(', ');
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}

export function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/** A place in a definition: its human name, its path, and how keys below it are named. */
export class Scope {
  constructor(
    readonly where: string,
    readonly path: ConfigPath,
    private readonly warnings: FlowWarning[],
    /** The name of the value this scope points into, relative to `where` ("ask", "message"). */
    private readonly label = '',
  ) {}

  /** A new place (a step, a trigger) below this one. */
  child(where: string, ...keys: (string | number)[]): Scope {
    return new Scope(where, [...this.path, ...keys], this.warnings);
  }

  /** The same place, deeper in the value. */
  at(...keys: (string | number)[]): Scope {
    const label = keys.reduce<string>((text, key) => labelOf(text, key), this.label);
    return new Scope(this.where, [...this.path, ...keys], this.warnings, label);
  }

  fail(code: FlowConfigurationCode, what: string, fix: string): never {
    throw new FlowConfigurationError({ code, where: this.where, what, fix, path: this.path });
  }

  warn(code: FlowWarningCode, what: string): void {
    this.warnings.push({ code, message: `${this.where}: ${what}.`, path: [...this.path] });
  }

  /** Fails with `invalid-type` naming the key, the expected type and what was there. */
  wrongType(key: string | number, expected: string, got: unknown, fix?: string): never {
    const name = labelOf(this.label, key);
    return this.at(key).fail('invalid-type', `${name} must be ${expected}, got ${describeValue(got)}`, fix ?? `Set ${name} to ${expected}, or remove it`);
  }
}

function labelOf(prefix: string, key: string | number): string {
  if (typeof key === 'number') return `${prefix}[${key}]`;
  return prefix === '' ? key : `${prefix}.${key}`;
}
