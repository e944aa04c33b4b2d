import { Global, Module } from '@nestjs/common';
import { AuthFailureLimit } from './auth-failure-limit.service.js';

/**
 * Why global: every module that guards admin routes (`AdminTokenGuard` is provided by each) and
 * the web view's sign-in must count failures in the one `AuthFailureLimit` of the app.
 */
@Global()
@Module({ providers: [AuthFailureLimit], exports: [AuthFailureLimit] })
export class AuthFailureLimitModule {}
