import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ConditionsModule } from '../conditions/conditions.module';
import { ActionRegistry } from './action-registry';
import { ConfirmBookingAction } from './builtin/confirm-booking.action';

/** Registered actions: every @AgentAction provider listed here (or in a module the worker imports) is found at start-up. */
@Module({
  imports: [DiscoveryModule, ConditionsModule],
  providers: [ConfirmBookingAction, ActionRegistry],
  exports: [ActionRegistry, ConditionsModule],
})
export class ActionsModule {}
