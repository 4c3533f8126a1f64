import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { Static } from 'typebox';
import type { Database } from '../../db/client.ts';
import { aiAgents, emails, emailTranslations } from '../../db/schema.ts';
import { NotFoundError, ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import type { UploadedFile } from '../../http/uploads.ts';
import type { Services } from '../../services.ts';
import type { AiAgent, CreateAiAgentBody, UpdateAiAgentBody } from './ai-agents.schemas.ts';
import {
  type DocumentKind,
  documentKinds,
  readBrandGuidelinesDocument,
  UnreadableDocumentError,
} from './brand-guidelines-document.ts';

/**
 * Removes a file the agent no longer uses. The database no longer names it, so a failure here
 * loses nothing the user sees: it is logged (a file left behind), not answered as an error.
 */
async function removeStoredFile(services: Pick<Services, 'storage' | 'log'>, key: string): Promise<void> {
  try {
    await services.storage.delete(key);
  } catch (error) {
    services.log.warn({ err: error, key }, 'could not delete a replaced brand guidelines document');
  }
}

const { brandGuidelinesText: _text, ...summaryColumns } = getTableColumns(aiAgents);
/** An agent without its document's text (which can be long), but with the text's length. */
const summarySelection = {
  ...summaryColumns,
  characters: sql<number | null>`char_length(${aiAgents.brandGuidelinesText})`.mapWith((value: unknown) =>
    value === null ? null : Number(value),
  ),
};
type AiAgentSummary = Omit<typeof aiAgents.$inferSelect, 'brandGuidelinesText'> & {
  characters: number | null;
};

/**
 * The stored document's key carries what the API tells about the file, so that reading an agent
 * costs no trip to file storage: `ai-agents/<organization>/<agent>/<random>-<bytes>/<name>.<kind>`,
 * where <name> is the uploaded file name in hexadecimal (keys are lower-case ASCII only).
 */
const storageKeyPattern = /^ai-agents\/\d+\/\d+\/[0-9a-f]+-(\d+)\/([0-9a-f]*)\.(pdf|docx|md|txt)$/;
/** Bytes of the file name kept (in the key, hex-encoded, it doubles, and path segments stop at 255). */
const maxFilenameBytes = 100;

function storageKeyFor(
  agent: { organizationId: number; id: number },
  upload: { filename: string; size: number; kind: DocumentKind },
): string {
  const name = Buffer.from(upload.filename, 'utf8').toString('hex');
  return `ai-agents/${agent.organizationId}/${agent.id}/${randomBytes(8).toString('hex')}-${upload.size}/${name}.${upload.kind}`;
}

function storedDocumentOf(key: string) {
  const match = storageKeyPattern.exec(key);
  const kind = (match?.[3] ?? 'txt') as DocumentKind;
  const filename = match?.[2] ? Buffer.from(match[2], 'hex').toString('utf8') : `brand-guidelines.${kind}`;
  return { kind, filename, size: Number(match?.[1] ?? 0), contentType: documentKinds[kind].contentType };
}

/** The uploaded name, made safe to keep: its last path segment, one line, at most 100 bytes (extension kept). */
function cleanFilename(raw: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  let name = (raw.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001F\u007F-\u009F]/g, '').trim();
  const extension = /\.[A-Za-z0-9]{1,10}$/.exec(name)?.[0] ?? '';
  while (Buffer.byteLength(name, 'utf8') > maxFilenameBytes) {
    const stem = [...name.slice(0, name.length - extension.length)];
    stem.pop();
    name = `${stem.join('')}${extension}`;
  }
  return name;
}

/** The file name without its extension, as a document name (one line, at most 200 characters). */
function documentNameFrom(filename: string): string | null {
  const stem = filename.replace(/\.[A-Za-z0-9]{1,10}$/, '').trim();
  return stem === '' ? null : stem.slice(0, 200);
}

function downloadUrl(services: Pick<Services, 'config'>, row: { workspaceId: number; id: number }): string {
  return `${services.config.publicApiUrl}/api/v1/workspaces/${row.workspaceId}/ai_agents/${row.id}/brand_guidelines_doc`;
}

function toResponse(services: Pick<Services, 'config'>, row: AiAgentSummary): Static<typeof AiAgent> {
  const stored = row.brandGuidelinesStorageKey ? storedDocumentOf(row.brandGuidelinesStorageKey) : null;
  return {
    id: row.id,
    name: row.name,
    company_name: row.companyName,
    company_overview: row.companyOverview,
    tone: row.tone,
    guidelines: row.guidelines,
    brand_guidelines_document_name: row.brandGuidelinesDocumentName,
    brand_guidelines_document: stored
      ? {
          filename: stored.filename,
          content_type: stored.contentType,
          size: stored.size,
          characters: row.characters ?? 0,
          url: downloadUrl(services, row),
        }
      : null,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

async function findSummary(db: Database, workspaceId: number, id: number): Promise<AiAgentSummary> {
  const [row] = await db
    .select(summarySelection)
    .from(aiAgents)
    .where(and(eq(aiAgents.id, id), eq(aiAgents.workspaceId, workspaceId)));
  if (!row) throw new NotFoundError();
  return row;
}

export async function listAiAgents(
  services: Pick<Services, 'database' | 'config'>,
  workspaceId: number,
  page: PageRequest,
) {
  const where = eq(aiAgents.workspaceId, workspaceId);
  const [rows, [total]] = await Promise.all([
    services.database.db
      .select(summarySelection)
      .from(aiAgents)
      .where(where)
      .orderBy(desc(aiAgents.createdAt), desc(aiAgents.id))
      .limit(page.limit)
      .offset(page.offset),
    services.database.db.select({ value: count() }).from(aiAgents).where(where),
  ]);
  return listBody(
    rows.map((row) => toResponse(services, row)),
    total?.value ?? 0,
    page,
  );
}

export async function getAiAgent(
  services: Pick<Services, 'database' | 'config'>,
  workspaceId: number,
  id: number,
) {
  return toResponse(services, await findSummary(services.database.db, workspaceId, id));
}

/** People pick an agent by name (for an email, a translation): two of one workspace never share one. */
async function assertNameFree(db: Database, workspaceId: number, name: string, exceptId?: number) {
  const [clash] = await db
    .select({ id: aiAgents.id })
    .from(aiAgents)
    .where(
      and(
        eq(aiAgents.workspaceId, workspaceId),
        sql`lower(${aiAgents.name}) = lower(${name})`,
        exceptId === undefined ? undefined : sql`${aiAgents.id} <> ${exceptId}`,
      ),
    )
    .limit(1);
  if (clash) throw ValidationError.field('name', 'is already taken by another AI agent');
}

type FieldsInput = Omit<Static<typeof UpdateAiAgentBody>, 'name'>;

/** The columns a create or update body sets: only the fields it sends (null clears one). */
function columnsOf(input: FieldsInput) {
  return {
    ...(input.company_name !== undefined ? { companyName: input.company_name } : {}),
    ...(input.company_overview !== undefined ? { companyOverview: input.company_overview } : {}),
    ...(input.tone !== undefined ? { tone: input.tone } : {}),
    ...(input.guidelines !== undefined ? { guidelines: input.guidelines } : {}),
    ...(input.brand_guidelines_document_name !== undefined
      ? { brandGuidelinesDocumentName: input.brand_guidelines_document_name }
      : {}),
  };
}

export async function createAiAgent(
  services: Pick<Services, 'database' | 'config'>,
  principal: Principal,
  workspaceId: number,
  input: Static<typeof CreateAiAgentBody>,
) {
  await assertNameFree(services.database.db, workspaceId, input.name);
  const [row] = await services.database.db
    .insert(aiAgents)
    .values({ organizationId: principal.organizationId, workspaceId, name: input.name, ...columnsOf(input) })
    .returning({ id: aiAgents.id });
  if (!row) throw new Error('AI agent insert returned nothing');
  return getAiAgent(services, workspaceId, row.id);
}

export async function updateAiAgent(
  services: Pick<Services, 'database' | 'config'>,
  workspaceId: number,
  id: number,
  input: Static<typeof UpdateAiAgentBody>,
) {
  await findSummary(services.database.db, workspaceId, id);
  if (input.name !== undefined) await assertNameFree(services.database.db, workspaceId, input.name, id);
  const changes = { ...(input.name !== undefined ? { name: input.name } : {}), ...columnsOf(input) };
  if (Object.keys(changes).length > 0) {
    await services.database.db.update(aiAgents).set(changes).where(eq(aiAgents.id, id));
  }
  return getAiAgent(services, workspaceId, id);
}

/**
 * Deletes the agent and its document. Emails and translations that named it keep going without an
 * agent (their `ai_agent_id` becomes null; the emails are not otherwise changed).
 */
export async function deleteAiAgent(
  services: Pick<Services, 'database' | 'storage' | 'log'>,
  workspaceId: number,
  id: number,
) {
  const storageKey = await services.database.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ storageKey: aiAgents.brandGuidelinesStorageKey })
      .from(aiAgents)
      .where(and(eq(aiAgents.id, id), eq(aiAgents.workspaceId, workspaceId)))
      .for('update');
    if (!row) throw new NotFoundError();
    await tx
      .update(emails)
      // Naming updated_at keeps it: losing a deleted agent is not an edit of the email.
      .set({ aiAgentId: null, updatedAt: sql`${emails.updatedAt}` })
      .where(and(eq(emails.workspaceId, workspaceId), eq(emails.aiAgentId, id)));
    await tx
      .update(emailTranslations)
      .set({ aiAgentId: null, updatedAt: sql`${emailTranslations.updatedAt}` })
      .where(and(eq(emailTranslations.workspaceId, workspaceId), eq(emailTranslations.aiAgentId, id)));
    await tx.delete(aiAgents).where(eq(aiAgents.id, id));
    return row.storageKey;
  });
  if (storageKey) await removeStoredFile(services, storageKey);
}

function megabytes(bytes: number): string {
  return `${Number((bytes / 1024 / 1024).toFixed(1))} MB`;
}

/**
 * Reads the uploaded document (422 when it is not one Letterset can read, or is too large),
 * stores it and its text, and removes the document it replaces. The agent's document name, when
 * it has none, becomes the file name without its extension.
 */
export async function uploadBrandGuidelines(
  services: Pick<Services, 'database' | 'storage' | 'config' | 'log'>,
  workspaceId: number,
  id: number,
  file: UploadedFile | undefined,
  options: { maxBytes: number },
) {
  const agent = await findSummary(services.database.db, workspaceId, id);
  if (!file || file.bytes.length === 0) throw ValidationError.field('file', 'is required');
  if (file.truncated || file.bytes.length > options.maxBytes) {
    throw ValidationError.field(
      'file',
      `is too large: brand guidelines documents can be at most ${megabytes(options.maxBytes)}`,
    );
  }
  const document = await readBrandGuidelinesDocument(file).catch((error: unknown) => {
    if (error instanceof UnreadableDocumentError) throw ValidationError.field('file', error.message);
    throw error;
  });

  const filename = cleanFilename(file.filename) || `brand-guidelines.${document.kind}`;
  const storageKey = storageKeyFor(agent, { filename, size: file.bytes.length, kind: document.kind });
  await services.storage.put(storageKey, file.bytes, {
    contentType: documentKinds[document.kind].contentType,
  });
  let replacedKey: string | null;
  try {
    replacedKey = await services.database.db.transaction(async (tx) => {
      // Locked, so two uploads at once each remove the file the other replaced, and none is left behind.
      const [current] = await tx
        .select({
          storageKey: aiAgents.brandGuidelinesStorageKey,
          documentName: aiAgents.brandGuidelinesDocumentName,
        })
        .from(aiAgents)
        .where(and(eq(aiAgents.id, id), eq(aiAgents.workspaceId, workspaceId)))
        .for('update');
      if (!current) throw new NotFoundError();
      await tx
        .update(aiAgents)
        .set({
          brandGuidelinesStorageKey: storageKey,
          brandGuidelinesText: document.text,
          ...(current.documentName?.trim()
            ? {}
            : { brandGuidelinesDocumentName: documentNameFrom(filename) }),
        })
        .where(eq(aiAgents.id, id));
      return current.storageKey;
    });
  } catch (error) {
    await removeStoredFile(services, storageKey);
    throw error;
  }
  if (replacedKey && replacedKey !== storageKey) await removeStoredFile(services, replacedKey);
  return getAiAgent(services, workspaceId, id);
}

/** Removes the agent's document, its text and its name (which named that document). */
export async function deleteBrandGuidelines(
  services: Pick<Services, 'database' | 'storage' | 'log'>,
  workspaceId: number,
  id: number,
) {
  const storageKey = await services.database.db.transaction(async (tx) => {
    const [current] = await tx
      .select({ storageKey: aiAgents.brandGuidelinesStorageKey })
      .from(aiAgents)
      .where(and(eq(aiAgents.id, id), eq(aiAgents.workspaceId, workspaceId)))
      .for('update');
    if (!current) throw new NotFoundError();
    await tx
      .update(aiAgents)
      .set({ brandGuidelinesStorageKey: null, brandGuidelinesText: null, brandGuidelinesDocumentName: null })
      .where(eq(aiAgents.id, id));
    return current.storageKey;
  });
  if (storageKey) await removeStoredFile(services, storageKey);
}

/** Sends the agent's document as a download. */
export async function sendBrandGuidelines(
  services: Pick<Services, 'database' | 'storage'>,
  workspaceId: number,
  id: number,
  reply: FastifyReply,
) {
  const agent = await findSummary(services.database.db, workspaceId, id);
  if (!agent.brandGuidelinesStorageKey) {
    throw new NotFoundError('This AI agent has no brand guidelines document');
  }
  const file = await services.storage.get(agent.brandGuidelinesStorageKey);
  if (!file) throw new NotFoundError('The brand guidelines document is no longer stored');
  const stored = storedDocumentOf(agent.brandGuidelinesStorageKey);
  return reply
    .header('content-type', stored.contentType)
    .header('content-length', file.size)
    .header('content-disposition', attachment(stored.filename))
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .send(file.body);
}

/** A Content-Disposition for a download: an ASCII stand-in for old clients and the exact UTF-8 name. */
function attachment(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7E]|["\\%]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
