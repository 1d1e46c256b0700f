import type { PipeTransform } from '@nestjs/common';
import type { z } from 'zod';
import type { ErrorDetail } from '../errors/api-error';
import { ValidationFailedError } from '../errors/http-errors';

type Location = NonNullable<ErrorDetail['location']>;

/** Zod issues as error details: one entry per problem, unknown keys listed one by one. */
export function issuesToDetails(issues: z.core.$ZodIssue[], location: Location): ErrorDetail[] {
  return issues.flatMap((issue): ErrorDetail[] => {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        location,
        path: path ? `${path}.${key}` : key,
        issue: issue.code,
        message: `Unknown field "${key}".`,
      }));
    }
    return [{ location, path, issue: issue.code, message: issue.message }];
  });
}

/**
 * Validates one part of the request with a zod schema: `@Body(new ZodValidationPipe(schema))`.
 * Any problem → 400 `validation-failed` with details; the handler never runs.
 */
export class ZodValidationPipe<S extends z.ZodType> implements PipeTransform<unknown, z.output<S>> {
  constructor(
    /** Public so the OpenAPI document (apps/api/src/docs) describes exactly what is checked. */
    readonly schema: S,
    readonly location: Location = 'body',
  ) {}

  transform(value: unknown): z.output<S> {
    const parsed = this.schema.safeParse(value);
    if (parsed.success) return parsed.data;
    const details = issuesToDetails(parsed.error.issues, this.location);
    const where = details.map((d) => (d.path ? `${this.location}.${d.path}` : this.location));
    throw new ValidationFailedError(
      `Invalid request ${this.location}: ${[...new Set(where)].join(', ')}. See error.details.`,
      details,
    );
  }
}
