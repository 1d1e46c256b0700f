import type { FastifyCorsOptions } from '@fastify/cors';
import type { FastifyRequest } from 'fastify';
import type { ServerToServerRoutes } from '../common/http/server-to-server';
import type { WidgetChannels } from './widget-channels';
import { originAllowed } from './widget-settings';

const WIDGET_ROUTE = /^\/v1\/widget\/([^/?#]+)\//;

/**
 * CORS for the whole API, decided per request: the widget's routes allow exactly the origins of
 * the channel their public id names (looked up, and cached a few seconds, by WidgetChannels), with
 * no credentials (the visitor token travels in a header, never in a cookie); every other route
 * allows the console's origins as before, except server-to-server routes, which allow none. A widget request from another origin, for an unknown
 * widget, or while the lookup fails gets no Access-Control-Allow-Origin, so the browser refuses it.
 */
export function corsDelegator(consoleOptions: FastifyCorsOptions, widgets: WidgetChannels, serverToServer: ServerToServerRoutes) {
  return (req: FastifyRequest, callback: (err: Error | null, options: FastifyCorsOptions) => void): void => {
    if (serverToServer.covers(req)) return callback(null, NO_CORS);
    const publicId = WIDGET_ROUTE.exec(req.url)?.[1];
    if (!publicId) return callback(null, consoleOptions);
    const origin = req.headers.origin;
    widgets
      .find(publicId) // public ids need no percent-decoding; anything encoded is no id
      .then((channel) => callback(null, widgetCors(channel !== null && originAllowed(channel.settings, origin) ? origin! : false)))
      .catch(() => callback(null, widgetCors(false)));
  };
}

/** Server-to-server routes answer no CORS at all (ServerToServer). */
const NO_CORS: FastifyCorsOptions = { origin: false };

function widgetCors(origin: string | false): FastifyCorsOptions {
  return {
    origin,
    credentials: false,
    methods: ['GET', 'POST'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Last-Event-ID'],
    exposedHeaders: ['Retry-After', 'X-Request-Id'],
    maxAge: 600,
  };
}
