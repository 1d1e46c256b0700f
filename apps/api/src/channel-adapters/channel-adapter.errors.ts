import { ApiError, NotFoundError, UnauthorizedError } from '../common/errors';

/** No channel of that kind has that id (or it was deleted): the platform should stop calling. */
export class PlatformChannelNotFoundError extends NotFoundError {
  constructor(kind: string, id: string) {
    super('channel-not-found', `No ${kind} channel has the id "${id}". Check the webhook URL at the platform, or create the channel again.`);
  }
}

/** The platform's signature or secret is missing or wrong: nothing was stored. */
export class InvalidPlatformSignatureError extends UnauthorizedError {
  constructor(what: string) {
    super('invalid-signature', `${what} Nothing was stored.`);
  }
}

/** The platform refused the channel's set-up (setWebhook): the channel was not created. */
export class ChannelSetupFailedError extends ApiError {
  readonly status = 502;
  readonly code: string;
  constructor(code: string, message: string) {
    super(`The platform refused the channel's set-up, so it was not saved: ${message}`);
    this.code = code;
  }
}
