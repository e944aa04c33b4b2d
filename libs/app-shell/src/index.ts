export { type AppHandle, type AppListenOptions, appHandle } from './app-handle.js';
export { readRawBody } from './raw-body.reader.js';
export { type RouteMatch, routeMatch } from './route-match.js';
