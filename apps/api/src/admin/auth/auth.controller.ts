import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Body, Controller, Get, HttpCode, Ip, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccessTokenService } from './access-token.service';
import { AdminAuthGuard, bearerTokenOf } from './admin-auth.guard';
import { Answers } from '../../docs/answer.decorator';
import { publicUser, toPublicUser, type AdminUser, type PublicUser } from './admin-user';
import { SessionEndedError } from './auth-session-errors';
import { AuthSessions } from './auth-sessions';
import { CurrentUser } from './current-user.decorator';
import { ZodValidationPipe } from '../../common/validation/zod-validation.pipe';
import { loginAnswer, loginBody, loginResult, LoginUseCase, type LoginBody, type LoginResult } from './login.usecase';
import { RefreshCookie } from './refresh-cookie';
import { ALL_ROLES, PublicRoute, Roles } from './roles.decorator';

@ApiTags('console admin')
@Controller('v1/admin/auth')
@UseGuards(AdminAuthGuard)
export class AuthController {
  constructor(
    private readonly login: LoginUseCase,
    private readonly sessions: AuthSessions,
    private readonly tokens: AccessTokenService,
    private readonly cookie: RefreshCookie,
  ) {}

  @Post('login')
  @ApiResponse({ status: 401, description: '`invalid-credentials`: wrong email or password.' })
  @ApiResponse({ status: 403, description: '`tenant-suspended`: right password, but the user\'s tenant is suspended; no session is started.' })
  @ApiResponse({ status: 429, description: '`too-many-attempts`: too many failed logins for this account or address; `Retry-After` says when to try again.' })
  @HttpCode(200)
  @PublicRoute()
  @ApiOperation({ summary: 'Log in with email and password; answers a 15-minute bearer token and sets the refresh cookie' })
  @Answers({ status: 200, description: 'Logged in; the refresh cookie (sb_refresh) is set.', schema: loginAnswer })
  async logIn(
    @Body(new ZodValidationPipe(loginBody)) body: LoginBody,
    @Ip() address: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LoginResult> {
    const { result, refresh } = await this.login.execute(body, address);
    this.cookie.set(request, reply, refresh.refreshToken, refresh.expiresAt);
    return result;
  }

  // Public: the refresh cookie is the credential (the access token has usually just expired).
  @Post('refresh')
  @ApiResponse({ status: 401, description: 'No refresh cookie, or a spent, expired or revoked one.' })
  @ApiResponse({ status: 403, description: '`tenant-suspended`: the user\'s tenant is suspended; the cookie stays for when it is reactivated.' })
  @HttpCode(200)
  @PublicRoute()
  @ApiOperation({ summary: 'Trade the refresh cookie for a new bearer token and a new refresh cookie (the old one is spent)' })
  @Answers({ status: 200, description: 'A new access token; the refresh cookie is replaced.', schema: loginAnswer })
  async refresh(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<LoginResult> {
    try {
      const { user, next } = await this.sessions.rotate(this.cookie.read(request));
      this.cookie.set(request, reply, next.refreshToken, next.expiresAt);
      return await loginResult(this.tokens, user, next);
    } catch (err) {
      // A cookie that can no longer refresh is dropped, so the browser stops sending it.
      if (err instanceof SessionEndedError) this.cookie.clear(request, reply);
      throw err;
    }
  }

  // Public, so an expired access token can still log out: the refresh cookie names the session.
  @Post('logout')
  @HttpCode(204)
  @PublicRoute()
  @ApiOperation({ summary: 'End the login session of the refresh cookie (and of the bearer token, if sent); always 204' })
  async logOut(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    const bearer = bearerTokenOf(request.headers.authorization);
    const claims = bearer ? await this.tokens.verify(bearer) : null;
    await this.sessions.end({ refreshToken: this.cookie.read(request), sessionId: claims?.sessionId });
    this.cookie.clear(request, reply);
  }

  @Get('me')
  @Roles(...ALL_ROLES)
  @ApiOperation({ summary: 'The logged-in console user' })
  @Answers({ status: 200, description: 'The user the access token belongs to.', schema: publicUser })
  me(@CurrentUser() user: AdminUser): PublicUser {
    return toPublicUser(user);
  }
}
