import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { NightlyPrices } from './builtin/nightly-prices';
import { PrecoTool } from './builtin/preco.tool';
import { ReservarTool } from './builtin/reservar.tool';
import { ToolRegistry } from './tool-registry';

/** Code tools: every @AgentTool provider listed here (or in a module imported by the worker) is found at start-up. */
@Module({
  imports: [DiscoveryModule],
  providers: [NightlyPrices, PrecoTool, ReservarTool, ToolRegistry],
  exports: [ToolRegistry],
})
export class ToolsModule {}
