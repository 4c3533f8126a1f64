import { checkTemplate, extractFeedFields, parseJsonPath } from '@letterset/core';
import { asc, eq } from 'drizzle-orm';
import type { Static } from 'typebox';
import { updateReturning } from '../../db/record-updates.ts';
import { components, feeds } from '../../db/schema.ts';
import { findWorkspaceRecord, pageOfWorkspaceRecords } from '../../db/workspace-records.ts';
import { ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import { OutboundFetchError, outboundFetch } from '../../security/outbound-fetch.ts';
import { sameDestination } from '../../security/secret-destination.ts';
import type { Services } from '../../services.ts';
import type { CreateFeedBody, Feed, FeedRunResult, RunFeedBody, UpdateFeedBody } from './feeds.schemas.ts';

type FeedRow = typeof feeds.$inferSelect;

/** Header values are secrets (API keys): only their first characters are ever returned. */
export function maskHeaderValue(value: string): string {
  return `${value.slice(0, Math.min(4, Math.floor(value.length / 3)))}…`;
}

function toResponse(row: FeedRow): Static<typeof Feed> {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    request_method: row.requestMethod as 'GET' | 'POST',
    parameters: row.parameters,
    headers: row.headers.map((header) => ({ key: header.key, value: maskHeaderValue(header.value) })),
    fields: row.fields,
    organization_id: row.organizationId,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export async function listFeeds(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  page: PageRequest,
) {
  const { rows, total } = await pageOfWorkspaceRecords(services, feeds, workspaceId, page);
  return listBody(rows.map(toResponse), total, page);
}

export async function getFeed(services: Pick<Services, 'database'>, workspaceId: number, id: number) {
  return toResponse(await findWorkspaceRecord(services, feeds, workspaceId, id));
}

function duplicates<T>(
  items: readonly T[] | undefined,
  keyOf: (item: T) => string,
  field: string,
  errors: Record<string, string[]>,
) {
  const seen = new Set<string>();
  items?.forEach((item, index) => {
    const key = keyOf(item).toLowerCase();
    if (seen.has(key)) errors[`${field}.${index}`] = ['is listed twice'];
    seen.add(key);
  });
}

/** Scheme, user, host and port: what follows `scheme://` up to the path, query or fragment. */
const authority = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

function checkFeed(input: Static<typeof UpdateFeedBody>): void {
  const errors: Record<string, string[]> = {};
  if (input.url !== undefined) {
    const problems = checkTemplate(input.url).filter((diagnostic) => diagnostic.severity === 'error');
    if (problems.length > 0) errors.url = problems.map((problem) => problem.message);
    // The headers are bound to the feed's origin: a parameter must not be able to choose the host.
    else if (/[{}]/.test(authority.exec(input.url.trim())?.[0] ?? ''))
      errors.url = [
        'must name its scheme, host and port without Liquid: parameters go into the path or query',
      ];
  }
  duplicates(input.parameters, (parameter) => parameter.name, 'parameters', errors);
  duplicates(input.headers, (header) => header.key, 'headers', errors);
  duplicates(input.fields, (field) => field.key, 'fields', errors);
  input.fields?.forEach((field, index) => {
    if (parseJsonPath(field.value) === null)
      errors[`fields.${index}.value`] = ['is not a JSON path such as $.product.name'];
  });
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

export async function createFeed(
  services: Pick<Services, 'database'>,
  principal: Principal,
  workspaceId: number,
  input: Static<typeof CreateFeedBody>,
) {
  checkFeed(input);
  const [row] = await services.database.db
    .insert(feeds)
    .values({
      organizationId: principal.organizationId,
      workspaceId,
      name: input.name,
      url: input.url,
      requestMethod: input.request_method,
      parameters: input.parameters,
      headers: input.headers,
      fields: input.fields,
    })
    .returning();
  if (!row) throw new Error('feed insert returned nothing');
  return toResponse(row);
}

/**
 * The headers to store. A header sent back with its masked value keeps the stored value (the
 * client never saw it), but only while the feed keeps its origin: moved to another scheme, host
 * or port, a stored value is not carried over and the header is dropped unless given anew.
 */
function headersToStore(
  stored: FeedRow['headers'],
  incoming: FeedRow['headers'],
  keepsDestination: boolean,
): { headers: FeedRow['headers']; cleared: string[] } {
  const storedValueOf = (key: string) =>
    stored.find((candidate) => candidate.key.toLowerCase() === key.toLowerCase())?.value;
  const headers: FeedRow['headers'] = [];
  const cleared = new Set<string>();
  for (const header of incoming) {
    const previous = storedValueOf(header.key);
    const sentBackMasked = previous !== undefined && header.value === maskHeaderValue(previous);
    if (!sentBackMasked) headers.push(header);
    else if (keepsDestination) headers.push({ ...header, value: previous });
    else cleared.add(header.key);
  }
  return { headers, cleared: [...cleared].map((key) => `headers.${key}`) };
}

export async function updateFeed(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  id: number,
  input: Static<typeof UpdateFeedBody>,
) {
  const feed = await findWorkspaceRecord(services, feeds, workspaceId, id);
  checkFeed(input);
  const keepsDestination = input.url === undefined || sameDestination(feed.url, input.url);
  const { headers, cleared } =
    input.headers !== undefined || !keepsDestination
      ? headersToStore(
          feed.headers,
          // Left out, the headers stay as they are: as if sent back masked.
          input.headers ??
            feed.headers.map((header) => ({ ...header, value: maskHeaderValue(header.value) })),
          keepsDestination,
        )
      : { headers: undefined, cleared: [] };
  // Through the shared partial update: a PATCH of `{}` writes nothing and answers the feed as it is.
  const [row] = await updateReturning(services.database.db, feeds, eq(feeds.id, id), {
    name: input.name,
    url: input.url,
    requestMethod: input.request_method,
    parameters: input.parameters,
    headers,
    fields: input.fields,
  });
  if (!row) throw new Error('feed update returned nothing');
  return { ...toResponse(row), secrets_cleared: cleared };
}

/** A feed that components use stays: they would silently stop filling their fields. */
export async function deleteFeed(services: Pick<Services, 'database'>, workspaceId: number, id: number) {
  const feed = await findWorkspaceRecord(services, feeds, workspaceId, id);
  const usingComponents = await services.database.db
    .select({ label: components.label })
    .from(components)
    .where(eq(components.feedId, id))
    .orderBy(asc(components.label));
  if (usingComponents.length > 0) {
    const names = usingComponents.map((component) => `“${component.label}”`).join(', ');
    throw ValidationError.field(
      'id',
      `The feed “${feed.name}” is used by the components ${names}: choose another feed for them first`,
    );
  }
  await services.database.db.delete(feeds).where(eq(feeds.id, id));
}

type RunResult = Static<typeof FeedRunResult>;

/**
 * Calls the feed with the given parameters and extracts its fields. Failures of the remote side
 * (refused address, timeout, oversize, non-2xx, not JSON) are part of the result, not errors.
 */
export async function runFeed(
  services: Pick<Services, 'database' | 'renderer' | 'config'>,
  workspaceId: number,
  id: number,
  input: Static<typeof RunFeedBody>,
): Promise<RunResult> {
  const feed = await findWorkspaceRecord(services, feeds, workspaceId, id);
  const result: RunResult = { url: null, body: null, status: null, error: null, extracted_data: {} };
  // The URL is a user template: it renders in the pool, never on the event loop.
  const rendered = await services.renderer.feedUrl(
    feed.url,
    input.parameters ?? {},
    services.renderer.budget(),
  );
  if ('error' in rendered) return { ...result, error: `The URL template did not render: ${rendered.error}` };
  result.url = rendered.url;
  try {
    const response = await outboundFetch(
      {
        url: result.url,
        method: feed.requestMethod as 'GET' | 'POST',
        headers: {
          accept: 'application/json',
          ...Object.fromEntries(feed.headers.map((h) => [h.key, h.value])),
        },
      },
      services.config.outboundFetch,
    );
    result.status = response.status;
    result.body = response.body;
    if (response.status < 200 || response.status > 299)
      return { ...result, error: `The feed answered ${response.status}` };
  } catch (error) {
    if (error instanceof OutboundFetchError) return { ...result, error: error.message };
    throw error;
  }
  let data: unknown;
  try {
    data = JSON.parse(result.body ?? '');
  } catch {
    return { ...result, error: 'The answer is not JSON' };
  }
  return { ...result, extracted_data: extractFeedFields(data, feed.fields) };
}
