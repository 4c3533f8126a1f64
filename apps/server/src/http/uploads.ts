import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { UploadLimitError } from './errors.ts';

/** A file from a multipart request, read into memory (uploads are small: images, CSVs, documents). */
export interface UploadedFile {
  field: string;
  filename: string;
  /** The client's word only: never trusted for what the bytes are. */
  declaredContentType: string;
  bytes: Buffer;
  /** True when the file was larger than the limit and was cut off. */
  truncated: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    uploadedFiles: UploadedFile[];
  }
}

/** What one multipart request may hold: more than any upload route takes. */
export const uploadLimits = { fields: 10, files: 1, fieldBytes: 64 * 1024 } as const;

/**
 * Multipart bodies become plain objects that the route's JSON schema validates like any other:
 * text fields as strings, and each file field as its file name, the bytes kept on
 * `request.uploadedFiles`. So a missing file or name is the same 422 as in JSON requests. An
 * upload beyond `uploadLimits` is a 413 that names the limit.
 */
export async function registerUploads(
  app: FastifyInstance,
  options: { maxFileBytes: number },
): Promise<void> {
  app.decorateRequest('uploadedFiles', null as unknown as UploadedFile[]);
  app.addHook('onRequest', async (request) => {
    request.uploadedFiles = [];
  });
  await app.register(multipart, {
    // A file over the limit is cut off and flagged, so the route can answer with a 422 naming the limit.
    throwFileSizeLimit: false,
    limits: {
      fileSize: options.maxFileBytes,
      files: uploadLimits.files,
      fields: uploadLimits.fields,
      fieldSize: uploadLimits.fieldBytes,
    },
  });
  app.addHook('preValidation', async (request) => {
    if (request.isMultipart()) request.body = await readUpload(request);
  });
}

/**
 * Reads every part. Past a limit the parser ends the stream of the part being read, so reading
 * that file fails with a bare "premature close" while the reason, the limit, comes as the next
 * part: the loop reads on to report the limit rather than the broken stream (a 500).
 */
async function readUpload(request: FastifyRequest): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  const add = (name: string, value: unknown) => {
    const existing = body[name];
    body[name] =
      existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
  };
  let brokenFile: unknown;
  try {
    // A route's own limits (a larger file, say) are merged over the plugin's.
    for await (const part of request.parts(request.routeOptions.config.multipartOptions)) {
      if (part.type === 'file') {
        try {
          const bytes = await part.toBuffer();
          request.uploadedFiles.push({
            field: part.fieldname,
            filename: part.filename,
            declaredContentType: part.mimetype,
            bytes,
            truncated: part.file.truncated,
          });
          add(part.fieldname, part.filename || part.fieldname);
        } catch (error) {
          brokenFile = error;
        }
      } else {
        if (part.valueTruncated) {
          throw new UploadLimitError(
            `The upload field ${part.fieldname} is too large: at most ${uploadLimits.fieldBytes / 1024} KB`,
          );
        }
        add(part.fieldname, part.value);
      }
    }
  } catch (error) {
    throw uploadLimitError(error) ?? error;
  }
  if (brokenFile !== undefined) throw brokenFile;
  return body;
}

function uploadLimitError(error: unknown): UploadLimitError | undefined {
  switch ((error as { code?: unknown }).code) {
    case 'FST_FIELDS_LIMIT':
      return new UploadLimitError(`The upload has too many fields: at most ${uploadLimits.fields}`);
    case 'FST_FILES_LIMIT':
      return new UploadLimitError(`The upload has too many files: at most ${uploadLimits.files}`);
    case 'FST_PARTS_LIMIT':
      return new UploadLimitError('The upload has too many parts');
    default:
      return undefined;
  }
}

/** A file field in a multipart body schema: documented as binary, validated as the file's name. */
export const FileField = (description: string) => Type.String({ format: 'binary', description });

export function uploadedFile(request: FastifyRequest, field: string): UploadedFile | undefined {
  return request.uploadedFiles.find((file) => file.field === field);
}
