/**
 * Regenerates apps/server/openapi.yml from the route schemas (`npm run generate:api` from the
 * repository root also regenerates the api-client from it).
 */
import { writeFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { migrateDatabase, openDatabase } from '../src/db/client.ts';
import { committedOpenApiPath, generateOpenApiYaml } from '../src/http/openapi-document.ts';

// The document's server URL is the default one, whatever this shell's PUBLIC_API_URL says.
const config = { ...loadConfig({ LOG_LEVEL: 'warn' }), runJobWorkers: false };
const database = await openDatabase({ pglite: await PGlite.create() });
await migrateDatabase(database);
const app = await buildApp(config, { database });
await app.ready();
await writeFile(committedOpenApiPath, generateOpenApiYaml(app));
await app.close();
process.stdout.write(`Wrote ${committedOpenApiPath}\n`);
