import { Injectable } from '@nestjs/common';
import { monthOf, PrismaService } from '@switchboard/db';
import { Gauge } from 'prom-client';
import { MetricsService } from './metrics.service';

/**
 * `switchboard_budget_warned_tenants` and `switchboard_budget_warned_agents`: tenants and agents
 * given this month's budget notice (80% of their money budget spent, docs/cost.md), read from
 * Tenant/Agent.budgetWarnedMonth when Prometheus scrapes, so every process that gave a notice
 * counts without a shared counter.
 */
@Injectable()
export class BudgetMetrics {
  constructor(prisma: PrismaService, metrics: MetricsService) {
    new Gauge({
      name: 'switchboard_budget_warned_tenants',
      help: 'Tenants that reached 80% of their monthly money budget this month (UTC)',
      registers: [metrics.registry],
      async collect() {
        this.set(await prisma.tenant.count({ where: { budgetWarnedMonth: { gte: monthOf(new Date()).from } } }));
      },
    });
    new Gauge({
      name: 'switchboard_budget_warned_agents',
      help: 'Agents that reached 80% of their own monthly money budget this month (UTC)',
      registers: [metrics.registry],
      async collect() {
        this.set(await prisma.agent.count({ where: { budgetWarnedMonth: { gte: monthOf(new Date()).from } } }));
      },
    });
  }
}
