import { Injectable } from '@nestjs/common';
import type { HistoryItem } from '@falai/agent';
import { PrismaService } from '@switchboard/db';
import { HISTORY_LIMIT } from '../config/worker-settings';

/**
 * The conversation before the message being answered, as the engine's history: the messages of
 * committed turns only (queued messages are not part of it yet), turn by turn, each turn's
 * inbound before its replies. Ordering by turn rather than by `seq` matters for bursts: replies
 * to the first message of a burst are stored after the later messages arrived.
 */
@Injectable()
export class LoadHistory {
  constructor(private readonly prisma: PrismaService) {}

  async execute(tenantId: string, sessionId: string): Promise<HistoryItem[]> {
    const rows = await this.prisma.message.findMany({
      where: { tenantId, sessionId, turnId: { not: null } },
      orderBy: [{ turn: { createdAt: 'desc' } }, { direction: 'desc' }, { seq: 'desc' }],
      take: HISTORY_LIMIT,
      select: { direction: true, text: true },
    });
    return rows.reverse().map((m): HistoryItem =>
      m.direction === 'inbound' ? { role: 'user', content: m.text } : { role: 'assistant', content: m.text },
    );
  }
}
