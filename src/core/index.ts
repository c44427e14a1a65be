export * from './errors.js';
export { LIMITS, type Limits } from './limits.js';
export type * from './types.js';
