/** What the global setup hands every test file: where the migrated template database is. */
export type DatabaseTemplate =
  | { kind: 'pglite'; dumpPath: string; scratchDir: string }
  | { kind: 'postgres'; serverUrl: string; templateName: string; namePrefix: string };

declare module 'vitest' {
  export interface ProvidedContext {
    databaseTemplate: DatabaseTemplate;
  }
}

/** The same server URL with another database name. */
export function databaseUrl(serverUrl: string, databaseName: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${databaseName}`;
  return url.toString();
}
