import { Inject, Injectable, Logger, Optional, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { AnyTool } from '@falai/agent';
import { discoverMarked, type MarkedProvider } from '../discovery/discover-marked';
import { AgentToolMarker, type AgentToolHandler, type AgentToolOptions } from './agent-tool.decorator';
import { WORKER_ENV, type WorkerEnv } from '../config/worker-env';
import { toEngineTool } from './to-engine-tool';
import { DEFAULT_TOOL_TIMEOUT_MS } from './tool-timeout';

export class DuplicateToolIdError extends Error {
  readonly code = 'duplicate-tool-id';
  constructor(id: string, classes: string[]) {
    super(`[DuplicateToolIdError] tool "${id}" is declared by ${classes.join(' and ')}. Give each @AgentTool a unique id.`);
    this.name = 'DuplicateToolIdError';
  }
}

export class InvalidToolProviderError extends Error {
  readonly code = 'invalid-tool-provider';
  constructor(className: string, id: string) {
    super(`[InvalidToolProviderError] ${className} (@AgentTool "${id}") has no handle(args, ctx) method. Add one.`);
    this.name = 'InvalidToolProviderError';
  }
}

export interface RegisteredToolInfo {
  id: string;
  description?: string;
  parameters?: object;
  /** The flags as they hold for an empty input (flags may depend on the input). */
  readOnly: boolean;
  destructive: boolean;
  provider: string;
}

function flagOf(flag: AgentToolOptions['isReadOnly']): boolean {
  return typeof flag === 'function' ? flag({}) : flag === true;
}

/** The worker's code tools, found once at start-up among the Nest providers marked @AgentTool. */
@Injectable()
export class ToolRegistry implements OnModuleInit {
  private readonly logger = new Logger(ToolRegistry.name);
  private tools = new Map<string, { tool: AnyTool; info: RegisteredToolInfo }>();

  constructor(
    private readonly discovery: DiscoveryService,
    // Absent when ToolsModule is used without the worker's env (unit tests): the default applies.
    @Optional() @Inject(WORKER_ENV) private readonly env?: Pick<WorkerEnv, 'TOOL_TIMEOUT_MS'>,
  ) {}

  onModuleInit(): void {
    this.tools = discoverMarked(this.discovery, this.logger, {
      marker: AgentToolMarker,
      nameOf: (options: AgentToolOptions) => options.id,
      method: 'handle',
      plural: 'tools',
      invalid: (className, id) => new InvalidToolProviderError(className, id),
      duplicate: (id, classes) => new DuplicateToolIdError(id, classes),
      build: ({ options, instance, className }: MarkedProvider<AgentToolOptions, AgentToolHandler>) => ({
        tool: toEngineTool(instance, options, this.env?.TOOL_TIMEOUT_MS ?? DEFAULT_TOOL_TIMEOUT_MS),
        info: {
          id: options.id,
          description: options.description,
          parameters: options.parameters,
          readOnly: flagOf(options.isReadOnly),
          destructive: flagOf(options.isDestructive),
          provider: className,
        },
      }),
    });
  }

  /** Every registered tool, for listing and syncing. */
  list(): RegisteredToolInfo[] {
    return [...this.tools.values()].map((t) => t.info);
  }

  has(id: string): boolean {
    return this.tools.has(id);
  }

  /** The engine tools an agent's allow-list names, in allow-list order; ids with no tool are left out. */
  forAllowList(ids: readonly string[]): AnyTool[] {
    return [...new Set(ids)].flatMap((id) => {
      const t = this.tools.get(id);
      return t ? [t.tool] : [];
    });
  }
}
