import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, ilike, or } from 'drizzle-orm';
import type { Static } from 'typebox';
import { escapeLikePattern } from '../../db/like.ts';
import { updateReturning } from '../../db/record-updates.ts';
import { images } from '../../db/schema.ts';
import { NotFoundError, quotedNames, ValidationError } from '../../http/errors.ts';
import { listBody, type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import type { UploadedFile } from '../../http/uploads.ts';
import type { Services } from '../../services.ts';
import { emailsMentioning } from '../emails/emails.usage.ts';
import {
  contentTypeOf,
  extensionOf,
  type InspectedImage,
  inspectImage,
  makeThumbnail,
  prepareForStorage,
} from './image-processing.ts';
import type { Image, UpdateImageBody } from './images.schemas.ts';

type ImageRow = typeof images.$inferSelect;

function toImageResponse({ storage }: Pick<Services, 'storage'>, row: ImageRow): Static<typeof Image> {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    filename: row.filename,
    width: row.width,
    height: row.height,
    file_size: row.fileSize,
    extension: row.extension as Static<typeof Image>['extension'],
    animated: row.animated,
    public_url: storage.publicUrl(row.storageKey),
    thumbnail_url: storage.publicUrl(row.thumbnailKey),
    organization_id: row.organizationId,
    workspace_id: row.workspaceId,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export async function listImages(
  services: Pick<Services, 'database' | 'storage'>,
  workspaceId: number,
  search: string | undefined,
  page: PageRequest,
) {
  const pattern = search ? `%${escapeLikePattern(search)}%` : undefined;
  const where = and(
    eq(images.workspaceId, workspaceId),
    pattern ? or(ilike(images.name, pattern), ilike(images.description, pattern)) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    services.database.db
      .select()
      .from(images)
      .where(where)
      .orderBy(desc(images.createdAt), desc(images.id))
      .limit(page.limit)
      .offset(page.offset),
    services.database.db.select({ value: count() }).from(images).where(where),
  ]);
  return listBody(
    rows.map((row) => toImageResponse(services, row)),
    total?.value ?? 0,
    page,
  );
}

async function findImage(
  services: Pick<Services, 'database'>,
  workspaceId: number,
  id: string,
): Promise<ImageRow> {
  const [row] = await services.database.db
    .select()
    .from(images)
    .where(and(eq(images.id, id), eq(images.workspaceId, workspaceId)));
  if (!row) throw new NotFoundError();
  return row;
}

export async function getImage(
  services: Pick<Services, 'database' | 'storage'>,
  workspaceId: number,
  id: string,
) {
  return toImageResponse(services, await findImage(services, workspaceId, id));
}

function megabytes(bytes: number): string {
  return `${Number((bytes / 1024 / 1024).toFixed(1))} MB`;
}

/** Checks the bytes, stores the image and its thumbnail, then records it. */
export async function uploadImage(
  services: Pick<Services, 'database' | 'storage' | 'config'>,
  principal: Principal,
  workspaceId: number,
  file: UploadedFile | undefined,
  details: { name: string; description?: string | undefined },
) {
  if (!file || file.bytes.length === 0) throw ValidationError.field('file', 'is required');
  if (file.truncated || file.bytes.length > services.config.maxImageBytes) {
    throw ValidationError.field(
      'file',
      `is too large: images can be at most ${megabytes(services.config.maxImageBytes)}`,
    );
  }
  const inspected = await inspectImage(file.bytes);
  if (!inspected) throw ValidationError.field('file', 'must be a JPEG, PNG, GIF or WebP image');

  return storeImage(services, principal, workspaceId, file.bytes, inspected, {
    ...details,
    filename: file.filename,
  });
}

/**
 * Stores checked image bytes in a workspace's library, the one way every image gets there (uploads
 * and generated images alike): location data removed, a thumbnail made, the files stored, the
 * record written.
 */
export async function storeImage(
  services: Pick<Services, 'database' | 'storage'>,
  principal: Pick<Principal, 'organizationId' | 'userId'>,
  workspaceId: number,
  bytes: Buffer,
  inspected: InspectedImage,
  details: { name: string; description?: string | undefined; filename: string },
) {
  const stored = await prepareForStorage(bytes, inspected);
  const thumbnail = await makeThumbnail(stored);
  const id = `img_${randomBytes(10).toString('hex')}`;
  const extension = extensionOf[inspected.format];
  const storageKey = `images/${principal.organizationId}/${id}.${extension}`;
  const thumbnailKey = `images/${principal.organizationId}/${id}-thumbnail.webp`;
  await services.storage.put(storageKey, stored, { contentType: contentTypeOf[inspected.format] });
  await services.storage.put(thumbnailKey, thumbnail.bytes, { contentType: 'image/webp' });

  const [row] = await services.database.db
    .insert(images)
    .values({
      id,
      organizationId: principal.organizationId,
      workspaceId,
      name: details.name,
      description: details.description ?? null,
      filename: details.filename.slice(0, 255) || `${id}.${extension}`,
      storageKey,
      thumbnailKey,
      width: inspected.width,
      height: inspected.height,
      fileSize: stored.length,
      extension,
      animated: inspected.animated,
      uploadedById: principal.userId,
    })
    .returning();
  if (!row) throw new Error('image insert returned nothing');
  return toImageResponse(services, row);
}

export async function updateImage(
  services: Pick<Services, 'database' | 'storage'>,
  workspaceId: number,
  id: string,
  input: Static<typeof UpdateImageBody>,
) {
  await findImage(services, workspaceId, id);
  const [row] = await updateReturning(services.database.db, images, eq(images.id, id), {
    name: input.name,
    description: input.description,
  });
  if (!row) throw new NotFoundError();
  return toImageResponse(services, row);
}

/**
 * Deletes the record, then the files. Emails that show the image would keep a broken URL, so an
 * image used in an email's content is refused (422 naming the emails) unless the caller forces it.
 */
export async function deleteImage(
  services: Services,
  workspaceId: number,
  id: string,
  force: boolean,
): Promise<void> {
  const image = await findImage(services, workspaceId, id);
  if (!force) {
    // Every URL of the image (public, CDN or signed) carries its unique storage key.
    const usedBy = await emailsMentioning(services, workspaceId, image.storageKey);
    if (usedBy.length > 0) {
      throw ValidationError.field(
        'image',
        `is used by emails (${quotedNames(usedBy)}); delete with force=true to remove it anyway`,
      );
    }
  }
  await services.database.db.delete(images).where(eq(images.id, id));
  await Promise.all([services.storage.delete(image.storageKey), services.storage.delete(image.thumbnailKey)]);
}
