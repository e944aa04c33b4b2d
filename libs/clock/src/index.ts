export { Clock, SystemClock } from './clock.js';
export { ManualClock } from './manual-clock.js';
