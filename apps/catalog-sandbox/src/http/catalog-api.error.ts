import { type CatalogErrorBody, CatalogErrorCode, OPERATORS } from '#lib/catalog-contract';
import { CATALOG_ERROR_STATUS } from './catalog-error-status.js';

type Extras = Omit<CatalogErrorBody, 'code' | 'message'>;

/**
 * The sandbox's one domain exception: an `error.code`, its HTTP status (also the envelope's
 * `errorCode`, from CATALOG_ERROR_STATUS) and the code's extra fields. The exception filter turns
 * it into the envelope.
 */
export class CatalogApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: CatalogErrorCode,
    message: string,
    readonly extras: Extras = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'CatalogApiError';
    this.status = CATALOG_ERROR_STATUS[code];
  }

  body(): CatalogErrorBody {
    return { code: this.code, message: this.message, ...this.extras };
  }

  static unauthorized(
    message: string,
    suggestion = 'Send a valid, active API key in the X-API-Key header.',
  ): CatalogApiError {
    return new CatalogApiError(CatalogErrorCode.UNAUTHORIZED, message, { suggestion });
  }

  static methodNotAllowed(method: string, path: string, allowed: string[]): CatalogApiError {
    return new CatalogApiError(
      CatalogErrorCode.METHOD_NOT_ALLOWED,
      `${path} does not take ${method}; it takes ${allowed.join(', ')}.`,
      { details: { allowed } },
      { Allow: allowed.join(', ') },
    );
  }

  static routeNotFound(method: string, path: string): CatalogApiError {
    return new CatalogApiError(CatalogErrorCode.NOT_FOUND, `No route ${method} ${path}.`);
  }

  static forbidden(permission: string): CatalogApiError {
    return new CatalogApiError(
      CatalogErrorCode.FORBIDDEN,
      `This API key lacks the "${permission}" permission.`,
      {
        details: { required_permission: permission },
      },
    );
  }

  static validation(message: string, details?: Record<string, unknown>): CatalogApiError {
    return new CatalogApiError(CatalogErrorCode.VALIDATION_ERROR, message, details ? { details } : {});
  }

  static productNotFound(skuId: string): CatalogApiError {
    return new CatalogApiError(CatalogErrorCode.PRODUCT_NOT_FOUND, `No product with skuId "${skuId}".`, {
      suggestion: 'The product may have been deleted. Search by supplierSku to find its current skuId.',
    });
  }

  static variantNotFound(skuId: string): CatalogApiError {
    return new CatalogApiError(CatalogErrorCode.VARIANT_NOT_FOUND, `No variant with skuId "${skuId}".`, {
      suggestion: 'Check the skuId; simple and parent products are read with GET /v1/products/{skuId}.',
    });
  }

  static unknownAttribute(key: string): CatalogApiError {
    return new CatalogApiError(
      CatalogErrorCode.UNKNOWN_ATTRIBUTE,
      `Attribute "${key}" does not exist in this account.`,
      {
        attribute_key: key,
        suggestion:
          'Use POST /v1/attributes/search to list the account attributes; new ones are created in the portal.',
      },
    );
  }

  static invalidValue(key: string, message: string): CatalogApiError {
    return new CatalogApiError(CatalogErrorCode.INVALID_ATTRIBUTE_VALUE, `Attribute "${key}": ${message}`, {
      attribute_key: key,
    });
  }

  static queryStructure(field: string, expected: string, received: unknown): CatalogApiError {
    return new CatalogApiError(
      CatalogErrorCode.INVALID_QUERY_STRUCTURE,
      `Invalid filter at "${field}": expected ${expected}.`,
      {
        details: { field, expected, received: describe(received) },
      },
    );
  }

  static unsupportedOperator(operator: string, field: string): CatalogApiError {
    return new CatalogApiError(
      CatalogErrorCode.UNSUPPORTED_OPERATOR,
      `Unsupported operator "${operator}" at "${field}".`,
      {
        supported_operators: OPERATORS,
      },
    );
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
