import { Controller, Delete, Get, type INestApplication, Module, Patch, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeMatch } from './route-match.js';

@Controller('v1/products')
class ProductsController {
  @Post('search')
  search() {}

  @Get(':skuId')
  read() {}

  @Patch(':skuId')
  edit() {}

  @Delete(':skuId')
  remove() {}
}

@Module({ controllers: [ProductsController] })
class TestModule {}

describe('routeMatch', () => {
  let app: INestApplication;
  const match = (path: string) => routeMatch(app.getHttpAdapter().getInstance(), path);
  beforeAll(async () => {
    app = await NestFactory.create(TestModule, { logger: false });
    await app.init();
  });
  afterAll(() => app.close());

  it('lists the methods of a parametric route, HEAD with GET', () => {
    expect(match('/v1/products/SK1')).toEqual({ kind: 'known', allowed: ['DELETE', 'GET', 'HEAD', 'PATCH'] });
  });

  it('gives a path that names a route outright to that route alone, not to a parameter', () => {
    expect(match('/v1/products/search')).toEqual({ kind: 'known', allowed: ['POST'] });
  });

  it('knows no route for other paths', () => {
    expect(match('/v1/products')).toEqual({ kind: 'unknown' });
    expect(match('/v2/products/SK1')).toEqual({ kind: 'unknown' });
  });
});
