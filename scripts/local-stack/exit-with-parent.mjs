// Preloaded (node --import) into every service the local stack starts: the service ends when the
// stack script ends, however it ends (Ctrl-C, a TERM to npm alone, kill -9). The stack gives each
// child an IPC channel; the operating system closes it when the stack process dies, whatever the
// signal, and the child then stops itself the way a TERM would stop it (graceful shutdown hooks).
const GRACE_MS = 5000;

function stopSelf() {
  setTimeout(() => process.exit(1), GRACE_MS).unref();
  process.kill(process.pid, 'SIGTERM');
}

if (process.channel) {
  // The channel must not keep the service alive by itself.
  process.channel.unref();
  process.once('disconnect', stopSelf);
} else {
  // Started some other way: fall back to watching for a new parent (we were orphaned).
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stopSelf();
  }, 500).unref();
}
