/** The connection tests' network settings, read once at start by config.ts (docs/connections.md). */

/** Private hosts a connection test may reach ("host" or "host:port", comma-separated). */
export const ALLOWED_HOSTS_ENV = "CONNECTION_TEST_ALLOWED_HOSTS";
/** `1`: the server process may open sockets to any host (scripts/start.ts); the guard still applies. */
export const ANY_HOST_ENV = "CONNECTION_TEST_ANY_HOST";
