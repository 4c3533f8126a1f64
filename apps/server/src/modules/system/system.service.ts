import { pendingMigrations } from '../../db/client.ts';
import type { Services } from '../../services.ts';

export interface Readiness {
  status: 'ready' | 'not_ready';
  database: { driver: 'pglite' | 'postgres'; reachable: boolean; pending_migrations: number };
}

/** Ready means the database answers and every migration of this release is applied. */
export async function checkReadiness(services: Pick<Services, 'database' | 'log'>): Promise<Readiness> {
  const driver = services.database.driver;
  try {
    const pending = await pendingMigrations(services.database.db);
    return {
      status: pending.length === 0 ? 'ready' : 'not_ready',
      database: { driver, reachable: true, pending_migrations: pending.length },
    };
  } catch (error) {
    services.log.warn({ err: error }, 'readiness check failed');
    return { status: 'not_ready', database: { driver, reachable: false, pending_migrations: 0 } };
  }
}
