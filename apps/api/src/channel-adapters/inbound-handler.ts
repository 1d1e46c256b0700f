import type { AdapterKind } from '@switchboard/webhooks';
import type { PlatformChannel } from './platform-channels';
import type { InboundVerdict } from './platform-message';

export interface InboundRequest {
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, unknown>;
  /** The body as it arrived (signatures are over these bytes). */
  rawBody: string;
  now: Date;
}

/** One platform's inbound side: its verification and its payload mapping. */
export interface InboundHandler<K extends AdapterKind> {
  kind: K;
  /** True when the request is the platform's; otherwise why not (the 401's message). */
  verify(req: InboundRequest, channel: PlatformChannel<K>): true | string;
  map(body: unknown, channel: PlatformChannel<K>): InboundVerdict;
}
