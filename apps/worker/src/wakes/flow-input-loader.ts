import { Injectable } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import type { FlowInput } from '@switchboard/queue';

/** The payload of a flow input's Wake row, if it is still to run (null once fired, cancelled, or malformed). */
@Injectable()
export class FlowInputLoader {
  constructor(private readonly prisma: PrismaService) {}

  async pending(tenantId: string, sessionId: string, key: string): Promise<FlowInput | null> {
    const row = await this.prisma.wake.findFirst({
      where: { tenantId, sessionId, key, status: 'scheduled' },
      select: { payload: true },
    });
    return row ? asFlowInput(row.payload) : null;
  }
}

export function asFlowInput(payload: unknown): FlowInput | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const p = payload as Record<string, unknown>;
  if (typeof p.key !== 'string') return null;
  if (p.kind === 'event' && typeof p.event === 'string') {
    const data = typeof p.data === 'object' && p.data !== null && !Array.isArray(p.data) ? (p.data as Record<string, unknown>) : undefined;
    return { kind: 'event', event: p.event, key: p.key, ...(data && { data }) };
  }
  if (p.kind === 'start' && typeof p.flow === 'string') return { kind: 'start', flow: p.flow, key: p.key };
  return null;
}
