// Port checks before anything starts, so a port in use gets one clear line naming the variable
// that moves the service, instead of a stack trace with EADDRINUSE from deep inside a service.
import { createServer } from 'node:net';

/** Resolves true when nothing listens on `port` (checked on every interface and on loopback). */
export async function portIsFree(port) {
  for (const host of ['0.0.0.0', '127.0.0.1']) {
    if (!(await canListen(port, host))) return false;
  }
  return true;
}

function canListen(port, host) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** The line for a port in use. */
export function portInUseLine(service, port) {
  return (
    `Port ${port} (${service.title}) is in use by another program: stop it, or set ${service.portVariable} ` +
    `to a free port, e.g. ${service.portVariable}=${port + 1} npm start`
  );
}
