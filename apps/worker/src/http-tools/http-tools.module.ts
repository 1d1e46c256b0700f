import { Module } from '@nestjs/common';
import { SecretBox } from '../secrets/secret-box';
import { HttpTools } from './http-tools';

@Module({ providers: [SecretBox, HttpTools], exports: [HttpTools] })
export class HttpToolsModule {}
