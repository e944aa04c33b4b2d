import { Body, Controller, HttpCode, type INestApplication, Module, Post } from '@nestjs/common';
import { APP_FILTER, APP_PIPE, NestFactory } from '@nestjs/core';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Min } from 'class-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocsModule } from '../src/operations/docs/docs.module.js';
import { OpenApiDocument } from '../src/operations/docs/openapi-document.service.js';
import { ApiConnectorErrors } from '../src/platform/http/connector-error.dto.js';
import { ConnectorExceptionFilter } from '../src/platform/http/connector-exception.filter.js';
import { connectorValidationPipe } from '../src/platform/http/connector-validation.pipe.js';

// A route added with its DTOs and nothing else (no docs file touched) appears in /openapi.json
// with its operationId, request and response shapes, and its body is checked by the same
// declaration (the connector's 400 `bad_request` naming the field).

class GreetingRequest {
  @ApiProperty({ description: 'Who to greet.' })
  @IsString()
  name!: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1 })
  @IsOptional()
  @IsInt()
  @Min(1)
  times?: number;
}

class Greeting {
  @ApiProperty({ example: 'hello, Ada' })
  text!: string;
}

@Controller('test/greetings')
class GreetingController {
  @Post()
  @HttpCode(200)
  @ApiOperation({ operationId: 'createTestGreeting', summary: 'A test-only route' })
  @ApiOkResponse({ type: Greeting })
  @ApiConnectorErrors(400)
  greet(@Body() body: GreetingRequest): Greeting {
    return { text: `hello, ${body.name}`.repeat(body.times ?? 1) };
  }
}

@Module({
  imports: [DocsModule],
  controllers: [GreetingController],
  providers: [
    { provide: APP_FILTER, useClass: ConnectorExceptionFilter },
    { provide: APP_PIPE, useFactory: connectorValidationPipe },
  ],
})
class GreetingModule {}

type Schema = { properties?: Record<string, Record<string, unknown>>; required?: string[] };
type Document = {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, Schema> };
};

describe('a route declared with DTOs only', () => {
  let app: INestApplication;
  let url: string;
  beforeAll(async () => {
    app = await NestFactory.create(GreetingModule, { logger: false });
    await app.init();
    app.get(OpenApiDocument).describe(app);
    await app.listen(0, '127.0.0.1');
    url = await app.getUrl();
  });
  afterAll(() => app?.close());

  it('is in the served document with its operationId and shapes', async () => {
    const doc = (await (await fetch(`${url}/openapi.json`)).json()) as Document;
    const operation = doc.paths['/test/greetings']?.post as {
      operationId: string;
      requestBody: { content: Record<string, { schema: { $ref: string } }> };
      responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }>;
    };
    expect(operation.operationId).toBe('createTestGreeting');
    expect(operation.requestBody.content['application/json']?.schema.$ref).toBe(
      '#/components/schemas/GreetingRequest',
    );
    expect(operation.responses['200']?.content['application/json']?.schema.$ref).toBe(
      '#/components/schemas/Greeting',
    );
    expect(operation.responses['400']?.content['application/json']?.schema.$ref).toBe(
      '#/components/schemas/ErrorBody',
    );
    expect(doc.components.schemas.GreetingRequest).toMatchObject({
      required: ['name'],
      properties: { name: { type: 'string' }, times: { type: 'integer', minimum: 1 } },
    });
    expect(doc.components.schemas.Greeting?.properties?.text).toMatchObject({ type: 'string' });
  });

  it('checks the body against the same declaration', async () => {
    const post = (body: unknown) =>
      fetch(`${url}/test/greetings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const ok = await post({ name: 'Ada' });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ text: 'hello, Ada' });
    for (const [body, parameter] of [
      [{ times: 2 }, 'name'],
      [{ name: 'Ada', times: 0 }, 'times'],
      [{ name: 'Ada', colour: 'red' }, 'colour'],
    ] as const) {
      const refused = await post(body);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: object }).error).toMatchObject({
        code: 'bad_request',
        details: { parameter },
      });
    }
  });
});
