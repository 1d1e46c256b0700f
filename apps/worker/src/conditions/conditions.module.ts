import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { BusinessHoursCondition } from './builtin/business-hours.condition';
import { ConditionRegistry } from './condition-registry';

/** Registered conditions: every @AgentCondition provider listed here (or in a module the worker imports) is found at start-up. */
@Module({
  imports: [DiscoveryModule],
  providers: [BusinessHoursCondition, ConditionRegistry],
  exports: [ConditionRegistry],
})
export class ConditionsModule {}
