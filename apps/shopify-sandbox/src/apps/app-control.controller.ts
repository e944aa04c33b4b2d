import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Put, UseGuards } from '@nestjs/common';
import { ControlTokenGuard } from '../control/control-token.guard.js';
import { ShopifyErrorCode, ShopifySandboxError } from '../http/shopify-sandbox.error.js';
import { isObject } from '../merchant/product-input.js';
import type { Shop } from '../shops/shop.js';
import { ShopRegistry } from '../shops/shop-registry.service.js';
import type { AppConfig, ComplianceUrls } from './app-config.js';
import { AppLifecycle, type ComplianceCustomer } from './app-lifecycle.service.js';
import { AppRegistry } from './app-registry.service.js';
import { OAuthService } from './oauth.service.js';

const COMPLIANCE_KEYS: ReadonlyArray<keyof ComplianceUrls> = [
  'customersDataRequest',
  'customersRedact',
  'shopRedact',
];

/** The control API of apps (no Shopify equivalent): settings, install, uninstall, legacy tokens, grants, compliance. */
@Controller('sandbox')
@UseGuards(ControlTokenGuard)
export class AppControlController {
  constructor(
    private readonly apps: AppRegistry,
    private readonly shops: ShopRegistry,
    private readonly lifecycle: AppLifecycle,
    private readonly oauth: OAuthService,
  ) {}

  @Get('apps')
  listApps() {
    return { apps: this.apps.list().map(publicView) };
  }

  /** Merges `{scopes?, redirectUrls?, complianceUrls?}` onto the app's settings. */
  @Put('apps/:clientId')
  updateApp(@Param('clientId') clientId: string, @Body() body: unknown) {
    const app = this.apps.app(clientId);
    if (!app) throw new ShopifySandboxError(ShopifyErrorCode.NOT_FOUND, `Unknown app ${clientId}`);
    const problem =
      'body must be {"scopes"?: [..], "redirectUrls"?: [..], "complianceUrls"?: {"customersDataRequest"?, "customersRedact"?, "shopRedact"?: url | null}}';
    if (!isObject(body)) throw ShopifySandboxError.badRequest(problem);
    const { scopes, redirectUrls, complianceUrls } = body;
    if (scopes !== undefined && !isStringList(scopes)) throw ShopifySandboxError.badRequest(problem);
    if (redirectUrls !== undefined && !(isStringList(redirectUrls) && redirectUrls.every(isHttpUrl))) {
      throw ShopifySandboxError.badRequest(problem);
    }
    if (complianceUrls !== undefined) {
      if (!isObject(complianceUrls)) throw ShopifySandboxError.badRequest(problem);
      for (const [name, value] of Object.entries(complianceUrls)) {
        if (
          !COMPLIANCE_KEYS.includes(name as keyof ComplianceUrls) ||
          !(value === null || isHttpUrl(value))
        ) {
          throw ShopifySandboxError.badRequest(problem);
        }
      }
      Object.assign(app.complianceUrls, complianceUrls);
    }
    if (scopes !== undefined) app.scopes = [...scopes];
    if (redirectUrls !== undefined) app.redirectUrls = [...redirectUrls];
    return { app: publicView(app) };
  }

  @Post('shops/:shop/uninstall')
  @HttpCode(HttpStatus.OK)
  uninstall(@Param('shop') domain: string, @Body() body: unknown) {
    return this.lifecycle.uninstall(this.shop(domain), this.clientIdOf(body));
  }

  @Post('shops/:shop/install')
  @HttpCode(HttpStatus.OK)
  install(@Param('shop') domain: string, @Body() body: unknown) {
    return this.lifecycle.install(this.shop(domain), this.clientIdOf(body));
  }

  /** `{clientId?}`: the app's non-expiring offline token on the shop (`{clientId, accessToken, scope}`). */
  @Post('shops/:shop/legacy-token')
  @HttpCode(HttpStatus.OK)
  legacyToken(@Param('shop') domain: string, @Body() body: unknown) {
    return this.lifecycle.legacyToken(this.shop(domain), this.clientIdOf(body));
  }

  @Get('shops/:shop/grants')
  grants(@Param('shop') domain: string) {
    return { grants: this.oauth.pendingGrants(this.shop(domain).domain) };
  }

  /** The merchant approves: `{location}` is where their browser goes (the app's signed redirect). */
  @Post('shops/:shop/grants/:id/approve')
  @HttpCode(HttpStatus.OK)
  approve(@Param('shop') domain: string, @Param('id') id: string) {
    return { location: this.oauth.approve(this.shop(domain).domain, id) };
  }

  @Post('shops/:shop/grants/:id/decline')
  @HttpCode(HttpStatus.OK)
  decline(@Param('shop') domain: string, @Param('id') id: string) {
    this.oauth.decline(this.shop(domain).domain, id);
    return { declined: true };
  }

  /** `{clientId?, customer?: {id, email, phone}, orders?: [ids]}`: a `customers/data_request`. */
  @Post('shops/:shop/compliance/customers-data-request')
  @HttpCode(HttpStatus.OK)
  dataRequest(@Param('shop') domain: string, @Body() body: unknown) {
    const { customer, orders } = complianceBody(body);
    const shop = this.shop(domain);
    return this.lifecycle.customerRequest(
      shop,
      this.clientIdOf(body),
      'customers/data_request',
      customer,
      orders,
    );
  }

  /** `{clientId?, customer?: {id, email, phone}, orders?: [ids]}`: a `customers/redact`. */
  @Post('shops/:shop/compliance/customers-redact')
  @HttpCode(HttpStatus.OK)
  redact(@Param('shop') domain: string, @Body() body: unknown) {
    const { customer, orders } = complianceBody(body);
    const shop = this.shop(domain);
    return this.lifecycle.customerRequest(shop, this.clientIdOf(body), 'customers/redact', customer, orders);
  }

  private clientIdOf(body: unknown): string {
    const clientId = isObject(body) ? body.clientId : undefined;
    if (clientId === undefined) return this.apps.defaultClientId;
    if (typeof clientId !== 'string') throw ShopifySandboxError.badRequest('clientId must be a string');
    return clientId;
  }

  private shop(domain: string): Shop {
    const shop = this.shops.byDomain(domain);
    if (!shop) throw new ShopifySandboxError(ShopifyErrorCode.NOT_FOUND, `Unknown shop ${domain}`);
    return shop;
  }
}

/** An app without its secret. */
function publicView(app: AppConfig) {
  const { clientSecret: _secret, ...rest } = app;
  return rest;
}

function complianceBody(body: unknown): { customer: ComplianceCustomer; orders: number[] } {
  const given = isObject(body) ? body : {};
  const customer = isObject(given.customer) ? given.customer : {};
  const orders = given.orders ?? [];
  if (!Array.isArray(orders) || !orders.every((o) => Number.isInteger(o))) {
    throw ShopifySandboxError.badRequest('orders must be a list of order ids');
  }
  return {
    customer: {
      id: typeof customer.id === 'number' ? customer.id : 1,
      email: typeof customer.email === 'string' ? customer.email : 'customer@example.com',
      phone: typeof customer.phone === 'string' ? customer.phone : null,
    },
    orders: orders as number[],
  };
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

function isHttpUrl(value: unknown): value is string {
  return typeof value === 'string' && /^https?:\/\//.test(value) && URL.canParse(value);
}
