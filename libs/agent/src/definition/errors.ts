import { type ConfigPath, toPointer } from './config-path';

/** Stable codes of definition problems. */
export type FlowConfigurationCode =
  | 'invalid-type'
  | 'missing-id'
  | 'missing-name'
  | 'missing-steps'
  | 'duplicate-step-id'
  | 'reserved-step-id'
  | 'duplicate-flow-id'
  | 'empty-step'
  | 'mixed-step'
  | 'kind-mismatch'
  | 'unknown-key'
  | 'unknown-field'
  | 'unknown-tool'
  | 'unknown-step'
  | 'empty-phrase'
  | 'only-exclusions'
  | 'question-without-collect'
  | 'invalid-parameters'
  | 'invalid-field'
  | 'reserved-field'
  | 'duplicate-action'
  | 'duplicate-condition'
  | 'unknown-action'
  | 'unknown-condition'
  | 'unknown-flow'
  | 'unknown-param'
  | 'missing-param'
  | 'invalid-param'
  | 'invalid-duration'
  | 'invalid-predicate'
  | 'invalid-hours'
  | 'invalid-trigger';

export interface FlowConfigurationProblem {
  code: FlowConfigurationCode;
  /** Who is wrong, for people: `flow "hospedagem", step "oferta"`. */
  where: string;
  /** What is wrong, without a final period. */
  what: string;
  /** How to fix it, without a final period. */
  fix: string;
  /** Path to the offending value from the root of what was validated. */
  path: ConfigPath;
}

/**
 * A flow, field, tool or agent definition the engine cannot run. Thrown when an agent is built
 * and by `validateFlow` / `fromSpec`; an API maps it to 422 with `toJSON()`.
 */
export class FlowConfigurationError extends Error {
  readonly code: FlowConfigurationCode;
  readonly where: string;
  readonly path: ConfigPath;

  constructor(problem: FlowConfigurationProblem) {
    super(`[FlowConfigurationError] ${problem.where}: ${problem.what}. ${problem.fix}.`);
    this.name = 'FlowConfigurationError';
    this.code = problem.code;
    this.where = problem.where;
    this.path = [...problem.path];
  }

  /** The path as a JSON Pointer: `/flows/0/steps/1/tools/0`. */
  get pointer(): string {
    return toPointer(this.path);
  }

  /** The `{ code, message, details }` body of a 4xx answer. */
  toJSON(): { code: FlowConfigurationCode; message: string; details: { path: (string | number)[]; pointer: string; where: string } } {
    return {
      code: this.code,
      message: this.message,
      details: { path: [...this.path], pointer: this.pointer, where: this.where },
    };
  }
}

export function isFlowConfigurationError(err: unknown): err is FlowConfigurationError {
  return err instanceof FlowConfigurationError;
}

/** Stable codes of things that run but are probably mistakes. */
export type FlowWarningCode =
  | 'unreachable-step'
  | 'ask-not-collected'
  | 'duplicate-collect'
  | 'duplicate-tool'
  | 'unused-option'
  | 'no-trigger'
  | 'unknown-key'
  | 'duplicate-tool-id'
  | 'required-not-in-properties';

export interface FlowWarning {
  code: FlowWarningCode;
  /** `<where>: <what>.` */
  message: string;
  path: (string | number)[];
}
