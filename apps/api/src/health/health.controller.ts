import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, type HealthCheckResult } from '@nestjs/terminus';
import { ApiError } from '../common/errors';
import { DependencyIndicators } from './health-indicators';

export class NotReadyError extends ApiError {
  readonly status = 503;
  readonly code = 'not-ready';
}

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly deps: DependencyIndicators,
  ) {}

  /** The process is up and serving HTTP; says nothing about its dependencies. */
  @Get('live')
  @HealthCheck()
  @ApiOperation({ summary: 'Liveness: the process serves HTTP' })
  live(): Promise<HealthCheckResult> {
    return this.health.check([]);
  }

  /** Ready to take traffic: Postgres answers SELECT 1 and Redis answers PING (Postgres mode: Postgres only). */
  @Get('ready')
  @HealthCheck()
  @ApiOperation({ summary: 'Readiness: Postgres (and Redis, unless Postgres mode) answer' })
  async ready(): Promise<HealthCheckResult> {
    try {
      const checks = [() => this.deps.postgres(), ...(this.deps.usesRedis ? [() => this.deps.redisPing()] : [])];
      return await this.health.check(checks);
    } catch (err) {
      if (err instanceof ServiceUnavailableException) {
        throw new NotReadyError('A dependency is down; see error.details.', err.getResponse());
      }
      throw err;
    }
  }
}
