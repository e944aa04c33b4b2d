import { BEHAVIOUR_CHOICES } from '../config/sandbox-behaviour.js';
import { operation } from './openapi-operation.js';

const accounts = 'Portal: accounts';
const keys = 'Portal: API keys';
const testing = 'Portal: test controls';
const p = 'portalToken' as const;
const account = ['id'];

const accountDefinition = {
  type: 'object',
  description: 'One seed-file entry. Default attributes exist without being listed.',
  properties: {
    id: { type: 'string' },
    apiKeys: {
      type: 'array',
      items: {
        type: 'object',
        properties: { key: { type: 'string' }, permissions: { type: 'array', items: { type: 'string' } } },
      },
    },
    taxonomy: { type: 'array', items: { type: 'object' } },
    attributes: { type: 'array', items: { type: 'object' } },
    behaviour: { $ref: '#/components/schemas/Behaviour' },
  },
};

/** The portal API (`/portal/v1`): what the spec leaves to the web portal, and test controls. */
export const PORTAL_PATHS: Record<string, Record<string, unknown>> = {
  '/portal/v1/accounts': {
    post: operation({
      operationId: 'portalCreateAccount',
      tag: accounts,
      security: p,
      summary: 'Create an account',
      body: accountDefinition,
      errors: [400, 409],
    }),
    get: operation({
      operationId: 'portalListAccounts',
      tag: accounts,
      security: p,
      summary: 'List accounts',
    }),
  },
  '/portal/v1/accounts/{id}': {
    get: operation({
      operationId: 'portalGetAccount',
      tag: accounts,
      security: p,
      summary: 'Account summary (no secrets)',
      params: account,
      errors: [404],
    }),
    delete: operation({
      operationId: 'portalDeleteAccount',
      tag: accounts,
      security: p,
      summary: 'Delete the account and everything in it',
      params: account,
      errors: [404],
    }),
  },
  '/portal/v1/accounts/{id}/behaviour': {
    patch: operation({
      operationId: 'portalUpdateBehaviour',
      tag: accounts,
      security: p,
      summary: 'Override behaviour switches for spec gaps',
      params: account,
      body: 'Behaviour',
      errors: [400, 404],
    }),
  },
  '/portal/v1/accounts/{id}/api-keys': {
    get: operation({
      operationId: 'portalListApiKeys',
      tag: keys,
      security: p,
      summary: 'List keys',
      params: account,
      errors: [404],
    }),
    post: operation({
      operationId: 'portalCreateApiKey',
      tag: keys,
      security: p,
      summary: 'Add a key (generated and shown once without `key`); at most 5 active',
      params: account,
      body: {
        type: 'object',
        properties: { key: { type: 'string' }, permissions: { type: 'array', items: { type: 'string' } } },
      },
      errors: [400, 404, 409],
    }),
  },
  '/portal/v1/accounts/{id}/api-keys/{keyId}': {
    delete: operation({
      operationId: 'portalDeleteApiKey',
      tag: keys,
      security: p,
      summary: 'Delete a key',
      params: ['id', 'keyId'],
      errors: [404],
    }),
  },
  '/portal/v1/accounts/{id}/api-keys/{keyId}/deactivate': {
    post: operation({
      operationId: 'portalDeactivateApiKey',
      tag: keys,
      security: p,
      summary: 'Deactivate a key',
      params: ['id', 'keyId'],
      errors: [404],
    }),
  },
  '/portal/v1/accounts/{id}/api-keys/{keyId}/activate': {
    post: operation({
      operationId: 'portalActivateApiKey',
      tag: keys,
      security: p,
      summary: 'Activate a key',
      params: ['id', 'keyId'],
      errors: [404, 409],
    }),
  },
  '/portal/v1/accounts/{id}/requests': {
    get: operation({
      operationId: 'portalListRequests',
      tag: testing,
      security: p,
      summary: "The account's /v1 request log",
      params: account,
      query: [
        { name: 'method', description: 'HTTP method' },
        { name: 'path', description: 'Exact path, or a prefix ending in *' },
        { name: 'status', description: 'HTTP status' },
        { name: 'since', description: 'Epoch ms' },
        { name: 'limit', description: 'Newest N entries' },
      ],
      errors: [400, 404],
    }),
    delete: operation({
      operationId: 'portalClearRequests',
      tag: testing,
      security: p,
      summary: 'Clear the request log',
      params: account,
      errors: [404],
    }),
  },
  '/portal/v1/accounts/{id}/faults': {
    get: operation({
      operationId: 'portalGetFaults',
      tag: testing,
      security: p,
      summary: 'Fault plan, remaining counts and injected counters',
      params: account,
      errors: [404],
    }),
    put: operation({
      operationId: 'portalSetFaults',
      tag: testing,
      security: p,
      summary: 'Replace the fault plan',
      params: account,
      body: 'FaultPlan',
      errors: [400, 404],
    }),
    delete: operation({
      operationId: 'portalClearFaults',
      tag: testing,
      security: p,
      summary: 'Clear faults and counters',
      params: account,
      errors: [404],
    }),
  },
  '/portal/v1/accounts/{id}/rate-limit': {
    get: operation({
      operationId: 'portalGetRateLimit',
      tag: testing,
      security: p,
      summary: "The account's rate limit",
      params: account,
      errors: [404],
    }),
    patch: operation({
      operationId: 'portalUpdateRateLimit',
      tag: testing,
      security: p,
      summary: 'Change {enabled, ratePerSecond, burst}',
      params: account,
      errors: [400, 404],
    }),
  },
};

const faultRule = {
  type: 'object',
  properties: {
    probability: { type: 'number', minimum: 0, maximum: 1 },
    count: { type: 'integer', minimum: 0 },
    method: { type: 'string' },
    path: { type: 'string', description: 'Exact, or a prefix ending in *' },
  },
};

export const PORTAL_SCHEMAS: Record<string, unknown> = {
  Behaviour: {
    type: 'object',
    description: 'Switches for what the spec leaves "not shown" (README, gap table).',
    properties: Object.fromEntries(
      Object.entries(BEHAVIOUR_CHOICES).map(([key, choices]) => [key, { enum: choices }]),
    ),
    additionalProperties: false,
  },
  FaultPlan: {
    type: 'object',
    properties: {
      error500: faultRule,
      burst429: {
        allOf: [faultRule, { type: 'object', properties: { retryAfterSeconds: { type: 'integer' } } }],
      },
      latency: {
        allOf: [faultRule, { type: 'object', required: ['ms'], properties: { ms: { type: 'integer' } } }],
      },
      commitThenDrop: faultRule,
      seed: { type: 'integer' },
    },
  },
};
