import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf, workspaceOf } from '../../http/access.ts';
import { ListResponse, pageRequest } from '../../http/pagination.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import { uploadedFile } from '../../http/uploads.ts';
import { openAiClient } from '../../integrations/ai/ai-client.ts';
import { generateLibraryImage } from './images.generation.ts';
import {
  DeleteImageQuery,
  GenerateImageBody,
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
      listImages(app.services, workspaceOf(request).id, request.query.search, pageRequest(request.query)),
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
      uploadImage(
        app.services,
        principalOf(request),
        workspaceOf(request).id,
        uploadedFile(request, 'file'),
        {
          name: request.body.name,
          description: request.body.description,
        },
      ),
  );

  app.post(
    '/api/v1/workspaces/:workspace_id/images/generate',
    {
      config: { permission: 'create_library_images' },
      schema: {
        operationId: 'generateImage',
        tags: ['Images'],
        summary: 'Generate an image with AI into the library',
        description:
          'Generates one image from `prompt` with the organization’s AI provider (Settings › AI: OpenAI or an ' +
          'OpenAI-compatible server with an image model) and stores it in the library like an upload. The prompt ' +
          'becomes the image’s `description`; the name is `name` or the first words of the prompt. Takes several ' +
          'seconds. 422 when no provider or no image model is set up; 502 when the provider refuses (a wrong API ' +
          'key, a rate limit, a host that cannot be reached) or answers with something that is not an image, with ' +
          'the reason in plain words.',
        params: ImagesParams,
        body: GenerateImageBody,
        response: { 200: ref(Image), ...errorResponses(401, 403, 404, 422, 502) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const client = await openAiClient(app.services, principal);
      return generateLibraryImage(app.services, client, principal, workspaceOf(request).id, request.body);
    },
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
    async (request) => getImage(app.services, workspaceOf(request).id, request.params.id),
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
    async (request) => updateImage(app.services, workspaceOf(request).id, request.params.id, request.body),
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
      await deleteImage(
        app.services,
        workspaceOf(request).id,
        request.params.id,
        request.query.force ?? false,
      );
      return reply.code(204).send(null);
    },
  );
};
