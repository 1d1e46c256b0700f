import { ConflictError } from '../../common/errors';

/** Only a delivery that gave up (dead) or is between retries (failed) can be sent again by hand. */
export class DeliveryNotRedrivableError extends ConflictError {
  constructor(id: string, status: string) {
    super('delivery-not-redrivable', `Delivery "${id}" is ${status}; only dead or failed deliveries can be redriven.`, { status });
  }
}
