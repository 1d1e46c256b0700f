import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Body, Controller, Get, HttpCode, Ip, Post, UseGuards } from '@nestjs/common';
import { AdminAuthGuard } from './admin-auth.guard';
import { toPublicUser, type AdminUser, type PublicUser } from './admin-user';
import { CurrentUser } from './current-user.decorator';
import { ZodValidationPipe } from '../../common/validation/zod-validation.pipe';
import { loginBody, LoginUseCase, type LoginBody, type LoginResult } from './login.usecase';
import { ALL_ROLES, PublicRoute, Roles } from './roles.decorator';

@ApiTags('console admin')
@Controller('v1/admin/auth')
@UseGuards(AdminAuthGuard)
export class AuthController {
  constructor(private readonly login: LoginUseCase) {}

  @Post('login')
  @HttpCode(200)
  @PublicRoute()
  @ApiOperation({ summary: 'Log in to the console with email and password; answers a short-lived bearer token' })
  logIn(@Body(new ZodValidationPipe(loginBody)) body: LoginBody, @Ip() address: string): Promise<LoginResult> {
    return this.login.execute(body, address);
  }

  @Get('me')
  @Roles(...ALL_ROLES)
  @ApiOperation({ summary: 'The logged-in console user' })
  me(@CurrentUser() user: AdminUser): PublicUser {
    return toPublicUser(user);
  }
}
