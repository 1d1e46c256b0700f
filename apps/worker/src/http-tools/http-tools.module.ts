import { Module } from '@nestjs/common';
import { SecretBox } from '../secrets/secret-box';
import { HttpToolTestProcessor } from './http-tool-test.processor';
import { HttpTools } from './http-tools';

@Module({ providers: [SecretBox, HttpTools, HttpToolTestProcessor], exports: [HttpTools] })
export class HttpToolsModule {}
