import type { App } from '../../app.ts';
import { pendingMigrations } from '../../db/client.ts';

export interface Readiness {
  status: 'ready' | 'not_ready';
  database: { driver: 'pglite' | 'postgres'; reachable: boolean; pending_migrations: number };
}

/** Ready means the database answers and every migration of this release is applied. */
export async function checkReadiness(app: App): Promise<Readiness> {
  const driver = app.database.driver;
  try {
    const pending = await pendingMigrations(app.database.db);
    return {
      status: pending.length === 0 ? 'ready' : 'not_ready',
      database: { driver, reachable: true, pending_migrations: pending.length },
    };
  } catch (error) {
    app.log.warn({ err: error }, 'readiness check failed');
    return { status: 'not_ready', database: { driver, reachable: false, pending_migrations: 0 } };
  }
}
