export { drive } from './drive-clock.js';
export { type QueueBackendChoice, queueTestKit } from './queue-backend.js';
export { uniqueId } from './unique-id.js';
