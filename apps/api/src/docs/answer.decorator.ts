import { SetMetadata } from '@nestjs/common';
import type { z } from 'zod';

export const ANSWERS_METADATA = 'switchboard:answers';

/** One success answer of a route: its status, the zod schema of its JSON body, and what it means. */
export interface DeclaredAnswer {
  status: number;
  /** Omitted for an answer without a body (204). */
  schema?: z.ZodType;
  description: string;
  example?: unknown;
}

/**
 * The success answers of a route, for the OpenAPI document (apps/api/src/docs). Type the handler's
 * return with `z.infer` of the same schema, so the answer cannot drift from what is declared;
 * the integration suite checks every real answer against it too (test/support/answer-validation.ts).
 */
export const Answers = (...answers: DeclaredAnswer[]): MethodDecorator => SetMetadata(ANSWERS_METADATA, answers);
