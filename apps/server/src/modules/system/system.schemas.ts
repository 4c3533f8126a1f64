import { Type } from 'typebox';

export const HealthResponse = Type.Object(
  { status: Type.Literal('ok') },
  { description: 'The process is up and serving requests' },
);

export const ReadinessResponse = Type.Object(
  {
    status: Type.Enum(['ready', 'not_ready']),
    database: Type.Object({
      driver: Type.Enum(['pglite', 'postgres'], {
        description: 'pglite: the embedded database; postgres: DATABASE_URL',
      }),
      reachable: Type.Boolean(),
      pending_migrations: Type.Integer({ description: 'Migrations in this release not yet applied' }),
    }),
  },
  { description: 'Whether the server can serve requests: database reachable, migrations applied' },
);
