import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { PrismaService, type Prisma } from '@switchboard/db';
import { ConditionRegistry } from '../conditions/condition-registry';
import { ActionRegistry } from './action-registry';

/**
 * Writes the worker's actions and conditions to RegisteredAction at start-up, so publishing can
 * refuse a flow naming one no worker provides. Rows no longer deployed stay (lastSeenAt ages).
 */
@Injectable()
export class SyncRegisteredActions implements OnApplicationBootstrap {
  private readonly logger = new Logger(SyncRegisteredActions.name);

  constructor(
    private readonly prisma: PrismaService,
    private readonly actions: ActionRegistry,
    private readonly conditions: ConditionRegistry,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const now = new Date();
    const rows = [
      ...this.actions.list().map((a) => ({ kind: 'action', name: a.name, description: a.description ?? '', params: a.params })),
      ...this.conditions.list().map((c) => ({ kind: 'condition', name: c.name, description: c.description ?? '', params: undefined })),
    ];
    for (const row of rows) {
      const data = {
        description: row.description,
        params: (row.params ?? undefined) as Prisma.InputJsonValue | undefined,
        lastSeenAt: now,
      };
      await this.prisma.registeredAction.upsert({
        where: { kind_name: { kind: row.kind, name: row.name } },
        create: { kind: row.kind, name: row.name, ...data },
        update: data,
      });
    }
    this.logger.log({ msg: 'registered actions synced', actions: rows.map((r) => `${r.kind}:${r.name}`) });
  }
}
