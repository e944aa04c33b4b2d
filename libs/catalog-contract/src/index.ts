export * from './enums.js';
export * from './errors.js';
export * from './filters.js';
export * from './limits.js';
export type * from './records.js';
export type * from './requests.js';
