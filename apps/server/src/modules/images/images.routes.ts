import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf, workspaceOf } from '../../http/access.ts';
import { ListResponse, pageRequest } from '../../http/pagination.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import { uploadedFile } from '../../http/uploads.ts';
import {
  DeleteImageQuery,
  Image,
  ImageParams,
  ImagesParams,
  ListImagesQuery,
  UpdateImageBody,
  UploadImageBody,
} from './images.schemas.ts';
import { deleteImage, getImage, listImages, updateImage, uploadImage } from './images.service.ts';

export const imagesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/v1/workspaces/:workspace_id/images',
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'listImages',
        tags: ['Images'],
        summary: 'List the image library, newest first',
        params: ImagesParams,
        querystring: ListImagesQuery,
        response: { 200: ListResponse(ref(Image)), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      listImages(app, workspaceOf(request).id, request.query.search, pageRequest(request.query)),
  );

  app.post(
    '/api/v1/workspaces/:workspace_id/images',
    {
      config: { permission: 'create_library_images' },
      schema: {
        operationId: 'uploadImage',
        tags: ['Images'],
        summary: 'Upload an image',
        description:
          'multipart/form-data with `file`, `name` and optionally `description`. JPEG, PNG, GIF (animations kept) and ' +
          'WebP are accepted, recognised from the bytes; anything else, or a file over the size limit (5 MB by ' +
          'default), answers 422. Location data is removed from JPEGs. A WebP thumbnail is made for the library.',
        consumes: ['multipart/form-data'],
        params: ImagesParams,
        body: UploadImageBody,
        response: { 200: ref(Image), ...errorResponses(401, 403, 404, 415, 422) },
      },
    },
    async (request) =>
      uploadImage(app, principalOf(request), workspaceOf(request).id, uploadedFile(request, 'file'), {
        name: request.body.name,
        description: request.body.description,
      }),
  );

  app.get(
    '/api/v1/workspaces/:workspace_id/images/:id',
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'getImage',
        tags: ['Images'],
        summary: 'Get an image',
        params: ImageParams,
        response: { 200: ref(Image), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => getImage(app, workspaceOf(request).id, request.params.id),
  );

  app.patch(
    '/api/v1/workspaces/:workspace_id/images/:id',
    {
      config: { permission: 'update_library_images' },
      schema: {
        operationId: 'updateImage',
        tags: ['Images'],
        summary: 'Rename an image or change its description',
        params: ImageParams,
        body: UpdateImageBody,
        response: { 200: ref(Image), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => updateImage(app, workspaceOf(request).id, request.params.id, request.body),
  );

  app.delete(
    '/api/v1/workspaces/:workspace_id/images/:id',
    {
      config: { permission: 'delete_library_images' },
      schema: {
        operationId: 'deleteImage',
        tags: ['Images'],
        summary: 'Delete an image and its files',
        description:
          'An image shown in an email is kept (422 naming the emails) unless force=true: those emails would ' +
          'show a broken image.',
        params: ImageParams,
        querystring: DeleteImageQuery,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await deleteImage(app, workspaceOf(request).id, request.params.id, request.query.force ?? false);
      return reply.code(204).send(null);
    },
  );
};
