import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { readRawBody } from '#lib/app-shell';
import { ShopifyErrorCode, ShopifySandboxError } from './shopify-sandbox.error.js';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const GRAPHQL_TYPE = /^application\/graphql\s*(?:;|$)/i;
/** Largest JSON body (Shopify documents none; large enough for any product with its variants). */
export const JSON_BODY_LIMIT_BYTES = 25 * 1024 * 1024;
/** Largest `application/graphql` body. */
export const GRAPHQL_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Reads request bodies: JSON (`application/json`) and GraphQL documents (`application/graphql`);
 * other types leave no body. Over the limit: 413. Malformed JSON: 400 `{"errors": ...}` on REST
 * and control routes; on Admin GraphQL the body is left empty, so the endpoint answers as Shopify
 * does to a request it cannot read: 400 `{"errors": {"query": "Required parameter missing or invalid"}}`.
 */
@Injectable()
export class RequestBodyMiddleware implements NestMiddleware {
  use(req: Request, _res: Response, next: NextFunction): void {
    const type = req.header('content-type') ?? '';
    const json = JSON_TYPE.test(type);
    if (!hasBody(req) || !(json || GRAPHQL_TYPE.test(type))) {
      next();
      return;
    }
    const limit = json ? JSON_BODY_LIMIT_BYTES : GRAPHQL_BODY_LIMIT_BYTES;
    const tooLarge = () =>
      new ShopifySandboxError(
        ShopifyErrorCode.PAYLOAD_TOO_LARGE,
        `Request bodies are limited to ${limit} bytes`,
      );
    readRawBody(req, limit, tooLarge)
      .then((raw) => {
        const text = raw.toString('utf8');
        req.body = json ? parseJson(text, req.path.endsWith('/graphql.json')) : text;
        next();
      })
      .catch((error: unknown) => next(error));
  }
}

function parseJson(text: string, graphql: boolean): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    if (graphql) return undefined;
    throw ShopifySandboxError.badRequest(`The request body is not valid JSON: ${(error as Error).message}`);
  }
}

function hasBody(req: Request): boolean {
  const length = req.header('content-length');
  return (length !== undefined && length !== '0') || req.header('transfer-encoding') !== undefined;
}
