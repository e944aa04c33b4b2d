import { IMAGE_MEDIA_TYPES } from '#lib/catalog-contract';

const tag = 'Object store and CDN';
const mediaTypes = [...new Set(Object.values(IMAGE_MEDIA_TYPES))];
const imageBody = Object.fromEntries(
  mediaTypes.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
);
const xmlError = (description: string) => ({
  description,
  content: { 'application/xml': { schema: { $ref: '#/components/schemas/ObjectStoreError' } } },
});

/**
 * The object store the upload URLs point at and the CDN of processed images. Not the catalog's
 * envelope: raw bytes in and out, XML errors, no API key (the signed URL is the authorization).
 */
export const OBJECT_STORE_PATHS: Record<string, Record<string, unknown>> = {
  '/object-store/uploads/{fileName}': {
    put: {
      operationId: 'putUploadObject',
      tags: [tag],
      summary: 'Upload the image bytes to the uploadUrl of POST /v1/upload/prepare (once, within 900 s)',
      security: [],
      parameters: [
        {
          name: 'fileName',
          in: 'path',
          required: true,
          schema: { type: 'string' },
          description: 'The tracked fileName',
        },
        {
          name: 'expires',
          in: 'query',
          required: true,
          schema: { type: 'string' },
          description: 'Epoch seconds',
        },
        {
          name: 'signature',
          in: 'query',
          required: true,
          schema: { type: 'string' },
          description: 'Hex HMAC-SHA256',
        },
      ],
      requestBody: {
        required: true,
        description: "The raw bytes; Content-Type must be the media type of the file name's extension",
        content: imageBody,
      },
      responses: {
        200: {
          description: 'Stored: empty body',
          headers: { ETag: { schema: { type: 'string' } } },
        },
        400: xmlError('InvalidContentType (wrong Content-Type) or InvalidImage (bytes not that format)'),
        403: xmlError('SignatureDoesNotMatch, or AccessDenied (expired, or already used)'),
        404: xmlError('NoSuchUpload (the account was deleted since prepare)'),
        413: xmlError('EntityTooLarge'),
      },
    },
  },
  '/cdn/{accountId}/{fileName}': {
    get: {
      operationId: 'getCdnImage',
      tags: [tag],
      summary: 'A processed image: the finalUrl of prepare, once its processing ended',
      security: [],
      parameters: [
        { name: 'accountId', in: 'path', required: true, schema: { type: 'string' } },
        { name: 'fileName', in: 'path', required: true, schema: { type: 'string' } },
      ],
      responses: {
        200: {
          description: 'The image bytes, as uploaded',
          headers: { ETag: { schema: { type: 'string' } }, 'Cache-Control': { schema: { type: 'string' } } },
          content: imageBody,
        },
        404: xmlError('NoSuchKey: unknown, or not processed yet'),
      },
    },
  },
};

/** The XML error document of the object store and CDN. */
export const OBJECT_STORE_SCHEMAS: Record<string, unknown> = {
  ObjectStoreError: {
    type: 'string',
    description: '<Error><Code>AccessDenied</Code><Message>...</Message></Error>',
    xml: { name: 'Error' },
  },
};
