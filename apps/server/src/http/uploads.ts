import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';

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

/**
 * Multipart bodies become plain objects that the route's JSON schema validates like any other:
 * text fields as strings, and each file field as its file name, the bytes kept on
 * `request.uploadedFiles`. So a missing file or name is the same 422 as in JSON requests.
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
    attachFieldsToBody: 'keyValues',
    // A file over the limit is cut off and flagged, so the route can answer with a 422 naming the limit.
    throwFileSizeLimit: false,
    limits: { fileSize: options.maxFileBytes, files: 1, fields: 10, fieldSize: 64 * 1024 },
    async onFile(this: FastifyRequest, part: MultipartFile) {
      const bytes = await part.toBuffer();
      this.uploadedFiles.push({
        field: part.fieldname,
        filename: part.filename,
        declaredContentType: part.mimetype,
        bytes,
        truncated: part.file.truncated,
      });
      (part as MultipartFile & { value: unknown }).value = part.filename || part.fieldname;
    },
  });
}

/** A file field in a multipart body schema: documented as binary, validated as the file's name. */
export const FileField = (description: string) => Type.String({ format: 'binary', description });

export function uploadedFile(request: FastifyRequest, field: string): UploadedFile | undefined {
  return request.uploadedFiles.find((file) => file.field === field);
}
