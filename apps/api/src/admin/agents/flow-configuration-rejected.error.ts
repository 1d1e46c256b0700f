import type { FlowConfigurationError } from '@falai/agent';
import { UnprocessableError } from '../../common/errors';

/** 422 with the engine's own message and the JSON path of the offending value in the config. */
export class FlowConfigurationRejectedError extends UnprocessableError {
  constructor(err: FlowConfigurationError) {
    super('flow-configuration', err.message, { path: err.path, pointer: err.pointer, where: err.where, engineCode: err.code });
  }
}
