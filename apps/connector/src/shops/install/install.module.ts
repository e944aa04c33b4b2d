import { Module } from '@nestjs/common';
import { InstallController } from './install.controller.js';

/** The install's OAuth routes (`/auth/shopify`); `ShopTokens` and `TokenGrants` come from the global `ShopsModule`. */
@Module({ controllers: [InstallController] })
export class InstallModule {}
