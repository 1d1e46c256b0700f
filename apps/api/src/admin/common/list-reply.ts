import type { FastifyReply } from 'fastify';
import { contentRange } from '../list-query/list-query';

/** Sets the simple-REST Content-Range header (the total react-admin pages with) and returns the rows. */
export function listReply<T>(reply: FastifyReply, resource: string, skip: number, rows: T[], total: number): T[] {
  reply.header('Content-Range', contentRange(resource, skip, rows.length, total));
  return rows;
}
