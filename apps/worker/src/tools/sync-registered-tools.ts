import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { PrismaService, type Prisma } from '@switchboard/db';
import { ToolRegistry } from './tool-registry';

/**
 * Writes the worker's code tools to RegisteredTool at start-up, so the console can list them for
 * agent allow-lists. Rows of tools no longer deployed stay (their lastSeenAt tells how stale).
 */
@Injectable()
export class SyncRegisteredTools implements OnApplicationBootstrap {
  private readonly logger = new Logger(SyncRegisteredTools.name);

  constructor(
    private readonly prisma: PrismaService,
    private readonly registry: ToolRegistry,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const now = new Date();
    for (const tool of this.registry.list()) {
      const data = {
        description: tool.description ?? '',
        parameters: (tool.parameters ?? undefined) as Prisma.InputJsonValue | undefined,
        readOnly: tool.readOnly,
        destructive: tool.destructive,
        lastSeenAt: now,
      };
      await this.prisma.registeredTool.upsert({ where: { toolId: tool.id }, create: { toolId: tool.id, ...data }, update: data });
    }
    this.logger.log({ msg: 'registered tools synced', tools: this.registry.list().map((t) => t.id) });
  }
}
