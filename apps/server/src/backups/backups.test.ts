import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { starterImageFiles } from '@letterset/core';
import { create as createArchive } from 'tar';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import { migrationsFolder } from '../db/client.ts';
import { DataDirLockedError, lockFileName } from '../db/data-dir-lock.ts';
import { createTestOrganization, signInAs, type TestOrganization } from '../test/factories.ts';
import { createTestDatabase, type TestApp, testConfig } from '../test/harness.ts';
import { solidImage } from '../test/images.ts';
import { backupDataFolder } from './backup.ts';
import { backupFormat, manifestEntryName, readManifest } from './backup-manifest.ts';
import { restoreDataFolder } from './restore.ts';

type Headers = Record<string, string>;

const scriptsDir = path.resolve(import.meta.dirname, '../../scripts');

/** The server's configuration for a data folder, with the files in their default place inside it. */
function configFor(dataDir: string, filesDir = path.join(dataDir, 'files')): Config {
  return testConfig({
    dataDir,
    storage: { kind: 'local', dir: filesDir, publicBaseUrl: 'http://localhost:3000/files' },
  });
}

/** Starts the app the way `npm start` does: it opens, locks and migrates the configured folder. */
async function startServer(config: Config): Promise<TestApp> {
  const app = await buildApp(config);
  await app.ready();
  return app;
}

/** Everything a reader sees of the workspace: each email in full, the image listing, every image's bytes. */
async function readWorkspace(app: TestApp, headers: Headers, workspaceId: number) {
  const base = `/api/v1/workspaces/${workspaceId}`;
  const get = (url: string) => app.inject({ method: 'GET', url, headers });
  const emails = [];
  for (const { id } of (await get(`${base}/emails?per=100`)).json().results) {
    emails.push((await get(`${base}/emails/${id}`)).json());
  }
  const images = (await get(`${base}/images?per=100`)).json();
  const served: Record<string, { status: number; bytes: Buffer }> = {};
  for (const image of images.results) {
    for (const url of [image.public_url, image.thumbnail_url]) {
      const response = await app.inject({ method: 'GET', url: new URL(url).pathname });
      served[url] = { status: response.statusCode, bytes: response.rawPayload };
    }
  }
  return { emails, images, served };
}

function uploadForm(name: string, bytes: Buffer, filename: string, type: string): FormData {
  const form = new FormData();
  form.append('name', name);
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), filename);
  return form;
}

async function uploadImage(app: TestApp, headers: Headers, workspaceId: number, form: FormData) {
  const response = await app.inject({
    method: 'POST',
    url: `/api/v1/workspaces/${workspaceId}/images`,
    headers,
    payload: form,
  });
  if (response.statusCode !== 200) throw new Error(`upload failed: ${response.body}`);
  return response.json();
}

/** Three emails with content and three images, all through the API. */
async function fillWorkspace(app: TestApp, organization: TestOrganization, headers: Headers) {
  const base = `/api/v1/workspaces/${organization.workspaceId}`;
  const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => {
    const response = await app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.body}`);
    return response.json();
  };
  const systems = await call('GET', `${base}/email_design_systems`);
  const system = systems.results.find(
    (candidate: { name: string }) => candidate.name === 'Letterset Starter',
  );
  const components = (await call('GET', `${base}/email_design_systems/${system.id}/components?per=100`))
    .results;
  const hero = components.find((component: { name: string }) => component.name === 'hero');
  const team = await call('POST', '/api/v1/teams', {
    name: 'Newsletter team',
    workspace_id: organization.workspaceId,
    badge_color: 'blue',
  });
  await call('POST', `/api/v1/teams/${team.id}/users`, { user_id: organization.admin.id });
  const project = await call('POST', `${base}/projects`, { name: 'Newsletters', team_id: team.id });

  for (const headline of ['Spring sale', 'Summer picks', 'Autumn news']) {
    const email = await call('POST', `${base}/emails`, {
      name: headline,
      email_design_system_id: system.id,
      project_id: project.id,
    });
    await call('PATCH', `${base}/emails/${email.id}`, {
      lock_version: email.lock_version,
      email_content: {
        ...email.email_content,
        subject: { branch_content: { null_branch: { 'en-US': `${headline}: inside` } } },
        component_instances: [
          {
            id: crypto.randomUUID(),
            component_id: hero.id,
            field_values: { null_branch: { 'en-US': { headline: { value: headline } } } },
          },
        ],
      },
    });
  }
  const png = await solidImage(320, 200).png().toBuffer();
  const jpeg = await solidImage(200, 320).jpeg().toBuffer();
  const gif = await solidImage(40, 40).gif().toBuffer();
  await uploadImage(app, headers, organization.workspaceId, uploadForm('Hero', png, 'hero.png', 'image/png'));
  await uploadImage(
    app,
    headers,
    organization.workspaceId,
    uploadForm('Tall', jpeg, 'tall.jpg', 'image/jpeg'),
  );
  await uploadImage(app, headers, organization.workspaceId, uploadForm('Dot', gif, 'dot.gif', 'image/gif'));
}

/** Every path inside a folder, sorted. */
async function listing(folder: string): Promise<string[]> {
  return (await readdir(folder, { recursive: true })).sort();
}

async function exists(file: string): Promise<boolean> {
  return (await stat(file).catch(() => null)) !== null;
}

/** A live process that is not this one, to hold a data folder's lock as a running server would. */
async function holdLock(dataDir: string): Promise<ChildProcess> {
  const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  await writeFile(path.join(dataDir, lockFileName), String(other.pid));
  return other;
}

/**
 * Runs `scripts/<name>.ts` as `npm run <name>` would, with only the given server variables set;
 * `fileSizeLimitKilobytes` is the shell's `ulimit -f` for it (writes past it fail with EFBIG).
 */
async function runScript(
  name: 'backup' | 'restore',
  args: string[],
  env: Record<string, string>,
  options: { fileSizeLimitKilobytes?: number } = {},
) {
  const environment: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent', ...env };
  for (const variable of ['DATABASE_URL', 'STORAGE', 'FILES_DIR', 'OUTBOX_DIR']) {
    if (!(variable in env)) delete environment[variable];
  }
  const command = [process.execPath, path.join(scriptsDir, `${name}.ts`), ...args];
  const child =
    options.fileSizeLimitKilobytes === undefined
      ? spawn(command[0] ?? '', command.slice(1), { env: environment, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(
          'bash',
          ['-c', `ulimit -f ${options.fileSizeLimitKilobytes} && exec "$@"`, 'bash', ...command],
          {
            env: environment,
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exitCode = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { exitCode, stdout, stderr };
}

/** What is in a data folder and the restore folders beside it: to see that a refused restore changed nothing. */
async function stateOf(dataDir: string) {
  const siblings = (await readdir(path.dirname(dataDir))).filter((name) =>
    name.startsWith(`${path.basename(dataDir)}.`),
  );
  return { inside: await listing(dataDir), siblings: siblings.sort() };
}

/** A gzip tar archive holding the given files, as another program (or an older Letterset) would write. */
async function archiveOf(file: string, entries: Record<string, string>): Promise<void> {
  const source = await mkdtemp(path.join(tmpdir(), 'letterset-archive-'));
  for (const [name, text] of Object.entries(entries)) {
    await mkdir(path.dirname(path.join(source, name)), { recursive: true });
    await writeFile(path.join(source, name), text);
  }
  await createArchive({ file, gzip: true, cwd: source }, Object.keys(entries));
  await rm(source, { recursive: true, force: true });
}

const onPglite = inject('databaseTemplate').kind === 'pglite';

describe.skipIf(!onPglite)('backups of the embedded data folder', () => {
  let scratch: string;
  let dataDir: string;
  let archive: string;
  let organization: TestOrganization;
  let before: Awaited<ReturnType<typeof readWorkspace>>;

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'letterset-backups-'));
    const database = await createTestDatabase({ persistent: true });
    if (!database.dataDir) throw new Error('a persistent PGlite test database has a data folder');
    dataDir = database.dataDir;

    const app = await startServer(configFor(dataDir));
    try {
      organization = await createTestOrganization(app);
      const admin = await signInAs(app, organization.admin);
      await fillWorkspace(app, organization, admin);
      before = await readWorkspace(app, admin, organization.workspaceId);
    } finally {
      await app.close();
    }
    archive = path.join(scratch, 'letterset.tar.gz');
    await backupDataFolder(configFor(dataDir), archive);
  });
  afterAll(() => rm(scratch, { recursive: true, force: true }));

  it('filled the workspace it backs up: three emails with content, three images served', () => {
    expect(before.emails.map((email) => email.name).sort()).toEqual([
      'Autumn news',
      'Spring sale',
      'Summer picks',
    ]);
    expect(before.emails.every((email) => email.email_content.component_instances.length === 1)).toBe(true);
    expect(before.images.results).toHaveLength(3);
    expect(Object.values(before.served).map(({ status }) => status)).toEqual([200, 200, 200, 200, 200, 200]);
  });

  it('restores into another folder: the same emails, image listing and image bytes', async () => {
    const otherDataDir = path.join(scratch, 'elsewhere', 'data');
    const result = await restoreDataFolder(configFor(otherDataDir), archive);
    expect(result).toMatchObject({ dataDir: otherDataDir, previousDataDir: null, previousFilesDir: null });

    const app = await startServer(configFor(otherDataDir));
    try {
      const admin = await signInAs(app, organization.admin);
      expect(await readWorkspace(app, admin, organization.workspaceId)).toEqual(before);
    } finally {
      await app.close();
    }
  });

  it('restores over changed data in the same folder, keeping the previous folder aside', async () => {
    const changed = await startServer(configFor(dataDir));
    let addedImageUrl: string;
    try {
      const admin = await signInAs(changed, organization.admin);
      const base = `/api/v1/workspaces/${organization.workspaceId}`;
      const [first, second] = before.emails;
      const renamed = await changed.inject({
        method: 'PATCH',
        url: `${base}/emails/${first.id}`,
        headers: admin,
        payload: { name: 'Renamed after the backup', lock_version: first.lock_version },
      });
      expect(renamed.statusCode).toBe(200);
      const deleted = await changed.inject({
        method: 'DELETE',
        url: `${base}/emails/${second.id}`,
        headers: admin,
      });
      expect(deleted.statusCode).toBe(204);
      const added = await uploadImage(
        changed,
        admin,
        organization.workspaceId,
        uploadForm('Added later', await solidImage(64, 64).png().toBuffer(), 'later.png', 'image/png'),
      );
      addedImageUrl = added.public_url;
    } finally {
      await changed.close();
    }

    // The server's secrets key is not in the backup; the restored folder keeps it.
    const secretsKey = `${'ab'.repeat(32)}\n`;
    await writeFile(path.join(dataDir, 'secrets.key'), secretsKey, { mode: 0o600 });
    const result = await restoreDataFolder(configFor(dataDir), archive);
    expect(await readFile(path.join(dataDir, 'secrets.key'), 'utf8')).toBe(secretsKey);
    expect(result.previousDataDir).toMatch(
      new RegExp(`^${dataDir.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.before-restore-`),
    );
    const previous = result.previousDataDir ?? '';
    // The data as it was before the restore is all there, beside the restored folder.
    expect(await exists(path.join(previous, 'pglite', 'PG_VERSION'))).toBe(true);
    expect(
      await exists(path.join(previous, 'files', new URL(addedImageUrl).pathname.replace('/files/', ''))),
    ).toBe(true);
    expect(await exists(path.join(previous, lockFileName))).toBe(false);
    expect(await exists(path.join(dataDir, lockFileName))).toBe(false);

    const app = await startServer(configFor(dataDir));
    try {
      const admin = await signInAs(app, organization.admin);
      expect(await readWorkspace(app, admin, organization.workspaceId)).toEqual(before);
      const added = await app.inject({ method: 'GET', url: new URL(addedImageUrl).pathname });
      expect(added.statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('restores the files into a FILES_DIR outside the data folder, keeping what was there aside', async () => {
    const otherDataDir = path.join(scratch, 'split', 'data');
    const filesDir = path.join(scratch, 'split', 'files');
    await mkdir(filesDir, { recursive: true });
    await writeFile(path.join(filesDir, 'was-here.txt'), 'older file');

    const result = await restoreDataFolder(configFor(otherDataDir, filesDir), archive);

    expect(result.previousFilesDir).toMatch(/split\/files\.before-restore-/);
    expect(await readFile(path.join(result.previousFilesDir ?? '', 'was-here.txt'), 'utf8')).toBe(
      'older file',
    );
    expect(await exists(path.join(otherDataDir, 'files'))).toBe(false);
    const app = await startServer(configFor(otherDataDir, filesDir));
    try {
      const admin = await signInAs(app, organization.admin);
      expect(await readWorkspace(app, admin, organization.workspaceId)).toEqual(before);
    } finally {
      await app.close();
    }
  });

  it('names its format, when it was made, the migration and what it holds in its manifest', async () => {
    const manifest = await readManifest(archive);
    const journal = JSON.parse(await readFile(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'));
    const lastMigration = journal.entries.at(-1);
    expect(manifest).toMatchObject({
      format: backupFormat,
      formatVersion: 1,
      database: {
        engine: 'pglite',
        postgresVersion: expect.stringMatching(/^\d+\.\d+/),
        migration: { tag: lastMigration.tag, createdAt: lastMigration.when, applied: journal.entries.length },
      },
    });
    expect(Date.now() - Date.parse(manifest.createdAt)).toBeLessThan(10 * 60_000);
    // Each image is stored with its thumbnail, beside the starter design system's pictures.
    expect(manifest.contents.files.files).toBe(6 + starterImageFiles.length);
    expect(manifest.contents.pglite.files).toBeGreaterThan(100);
  });

  it('refuses to back up while a server holds the data folder, exiting 1 and writing nothing', async () => {
    const server = await holdLock(dataDir);
    try {
      const target = path.join(scratch, 'refused.tar.gz');
      const { exitCode, stderr } = await runScript('backup', [target], { DATA_DIR: dataDir });
      expect(exitCode).toBe(1);
      expect(stderr).toContain(
        `Backup refused: The data folder ${dataDir} is in use by another Letterset process (pid ${server.pid})`,
      );
      expect(await exists(target)).toBe(false);
    } finally {
      server.kill();
      await rm(path.join(dataDir, lockFileName), { force: true });
    }
  });

  it('refuses to restore while a server holds the data folder, leaving it untouched', async () => {
    const server = await holdLock(dataDir);
    try {
      const folderBefore = await stateOf(dataDir);
      const attempt = restoreDataFolder(configFor(dataDir), archive);
      await expect(attempt).rejects.toBeInstanceOf(DataDirLockedError);
      expect(await stateOf(dataDir)).toEqual(folderBefore);
    } finally {
      server.kill();
      await rm(path.join(dataDir, lockFileName), { force: true });
    }
  });

  it('refuses a folder that holds no database, writing nothing', async () => {
    const empty = await mkdtemp(path.join(scratch, 'empty-'));
    const target = path.join(scratch, 'nothing.tar.gz');
    await expect(backupDataFolder(configFor(empty), target)).rejects.toThrow(
      `There is no Letterset database in ${empty}`,
    );
    expect(await exists(target)).toBe(false);
  });

  it('leaves no file behind when writing the archive fails half way', async () => {
    // Incompressible bytes make the archive larger than the file size limit the shell sets below,
    // which is larger than anything PGlite writes: the write of the archive is what fails.
    const bulky = await mkdtemp(path.join(scratch, 'bulky-'));
    const seeded = await createTestDatabase({ persistent: true });
    const bulkyDataDir = seeded.dataDir ?? '';
    await mkdir(path.join(bulkyDataDir, 'files', 'exports'), { recursive: true });
    await writeFile(path.join(bulkyDataDir, 'files', 'exports', 'big.zip'), randomBytes(24 * 1024 * 1024));
    const target = path.join(bulky, 'too-big.tar.gz');

    const { exitCode, stderr } = await runScript(
      'backup',
      [target],
      { DATA_DIR: bulkyDataDir },
      { fileSizeLimitKilobytes: 20 * 1024 },
    );

    expect(stderr).toContain('Backup failed');
    expect(stderr).toContain('EFBIG');
    expect(exitCode).toBe(1);
    expect(await readdir(bulky)).toEqual([]);
    expect(await exists(path.join(bulkyDataDir, lockFileName))).toBe(false);
  });

  describe('refuses a file that is not a Letterset backup, leaving the data folder as it was', () => {
    const cases: [string, (file: string) => Promise<void>, RegExp][] = [
      [
        'an image',
        async (file) => writeFile(file, await solidImage(10, 10).png().toBuffer()),
        /is not a Letterset backup \(it cannot be read as a gzip tar archive/,
      ],
      ['an empty file', (file) => writeFile(file, ''), /is not a Letterset backup \(it is empty\)/],
      [
        'a backup cut short',
        async (file) => {
          const whole = await readFile(archive);
          await writeFile(file, whole.subarray(0, Math.floor(whole.length / 2)));
        },
        /could not be read to the end \(zlib: unexpected end of file\): it is damaged or incomplete/,
      ],
      [
        'an archive of something else',
        (file) => archiveOf(file, { 'notes/todo.txt': 'hello' }),
        /is not a Letterset backup \(its first entry is notes\//,
      ],
      [
        'an archive whose manifest is not one of ours',
        (file) =>
          archiveOf(file, { [manifestEntryName]: JSON.stringify({ format: 'other', formatVersion: 1 }) }),
        /is not a Letterset backup \(its letterset-backup\.json does not describe a Letterset backup\)/,
      ],
      [
        'a backup of a newer format',
        (file) =>
          archiveOf(file, {
            [manifestEntryName]: JSON.stringify({ format: backupFormat, formatVersion: 2 }),
          }),
        /made by a newer Letterset \(backup format 2; this release reads format 1/,
      ],
      [
        'a backup at a migration this release does not have',
        async (file) => {
          const manifest = await readManifest(archive);
          const migration = manifest.database.migration;
          const later = {
            ...manifest,
            database: {
              ...manifest.database,
              migration: { ...migration, tag: '9999_future', createdAt: Date.now() * 2 },
            },
          };
          await archiveOf(file, { [manifestEntryName]: JSON.stringify(later) });
        },
        /at migration 9999_future, which this release of Letterset does not have/,
      ],
    ];
    it.each(cases)('%s', async (_name, make, message) => {
      const file = path.join(scratch, `not-a-backup-${randomBytes(4).toString('hex')}`);
      await make(file);
      const folderBefore = await stateOf(dataDir);
      await expect(restoreDataFolder(configFor(dataDir), file)).rejects.toThrow(message);
      expect(await stateOf(dataDir)).toEqual(folderBefore);
    });

    it('as a command, exits 1 with the reason', async () => {
      const file = path.join(scratch, 'picture.png');
      await writeFile(file, await solidImage(10, 10).png().toBuffer());
      const folderBefore = await stateOf(dataDir);
      const { exitCode, stderr } = await runScript('restore', [file], { DATA_DIR: dataDir });
      expect(stderr).toBe(
        `Restore refused: ${file} is not a Letterset backup (it cannot be read as a gzip tar archive: ` +
          'TAR_BAD_ARCHIVE: Unrecognized archive format).\n',
      );
      expect(exitCode).toBe(1);
      expect(await stateOf(dataDir)).toEqual(folderBefore);
    });
  });
});

describe('backups outside the embedded setup', () => {
  const archive = path.join(tmpdir(), 'letterset-never-written.tar.gz');

  it('refuses PostgreSQL mode, pointing to the README', async () => {
    const config = testConfig({ databaseUrl: 'postgres://postgres@127.0.0.1:5432/letterset' });
    for (const attempt of [backupDataFolder(config, archive), restoreDataFolder(config, archive)]) {
      await expect(attempt).rejects.toThrow(
        /DATABASE_URL is set.*pg_dump and pg_restore: see the "Backups" section/,
      );
    }
    expect(await exists(archive)).toBe(false);
  });

  it('refuses S3 storage, pointing to the README', async () => {
    const config = testConfig({
      storage: {
        kind: 's3',
        bucket: 'letterset',
        region: 'us-east-1',
        endpoint: undefined,
        forcePathStyle: false,
        credentials: undefined,
        publicBaseUrl: 'https://cdn.example.com',
      },
    });
    for (const attempt of [backupDataFolder(config, archive), restoreDataFolder(config, archive)]) {
      await expect(attempt).rejects.toThrow(/STORAGE=s3.*aws s3 sync.*see the "Backups" section/);
    }
  });
});
