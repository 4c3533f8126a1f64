import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { workspaceOf } from '../../http/access.ts';
import { errorResponses, ref } from '../../http/schemas.ts';
import { uploadedFile } from '../../http/uploads.ts';
import { workspaceCrudRoutes } from '../../http/workspace-crud-routes.ts';
import {
  AiAgent,
  AiAgentParams,
  CreateAiAgentBody,
  maxBrandGuidelinesBytes,
  UpdateAiAgentBody,
  UploadBrandGuidelinesBody,
} from './ai-agents.schemas.ts';
import {
  createAiAgent,
  deleteAiAgent,
  deleteBrandGuidelines,
  getAiAgent,
  listAiAgents,
  sendBrandGuidelines,
  updateAiAgent,
  uploadBrandGuidelines,
} from './ai-agents.service.ts';

const crudRoutes = workspaceCrudRoutes<number>({
  path: 'ai_agents',
  tag: 'AI agents',
  name: { singular: 'AiAgent', plural: 'AiAgents', words: 'AI agent' },
  permissions: {
    create: 'create_ai_agents',
    update: 'update_ai_agents',
    delete: 'delete_ai_agents',
  },
  schemas: {
    item: AiAgent,
    create: CreateAiAgentBody,
    update: UpdateAiAgentBody,
    itemParams: AiAgentParams,
  },
  descriptions: {
    create:
      'Only the name is needed; it must be unique in the workspace (case aside), or the answer is 422. Upload the brand guidelines document afterwards with POST .../ai_agents/{id}/brand_guidelines_doc.',
    update: 'Changes the fields sent; null clears one (the name excepted).',
    delete:
      'Also deletes its brand guidelines document. Emails and translations that used the agent keep going without one (their ai_agent_id becomes null).',
  },
  service: {
    list: listAiAgents,
    create: createAiAgent,
    get: getAiAgent,
    update: updateAiAgent,
    delete: deleteAiAgent,
  },
});

const documentPath = '/api/v1/workspaces/:workspace_id/ai_agents/:id/brand_guidelines_doc';
const tags = ['AI agents'];
const megabytes = maxBrandGuidelinesBytes / (1024 * 1024);

const documentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    documentPath,
    {
      config: {
        permission: 'update_ai_agents',
        // Documents may be larger than images: this route's own upload limit.
        multipartOptions: { limits: { fileSize: maxBrandGuidelinesBytes } },
      },
      schema: {
        operationId: 'uploadAiAgentBrandGuidelinesDoc',
        tags,
        summary: 'Upload an AI agent’s brand guidelines document',
        description:
          `multipart/form-data with the document as \`file\`: a PDF, a Word document (.docx), Markdown (.md) or ` +
          `plain UTF-8 text (.txt), at most ${megabytes} MB. PDF and DOCX are recognised from their bytes, text from ` +
          'its file name; the type the client sends is not trusted. Its text is extracted and kept for AI features. ' +
          'A file of another kind, over the limit, damaged, protected by a password or without any text answers ' +
          '422 on `file`. It replaces the agent’s previous document; when the agent has no ' +
          'brand_guidelines_document_name, the file name without its extension becomes it.',
        consumes: ['multipart/form-data'],
        params: AiAgentParams,
        body: UploadBrandGuidelinesBody,
        response: { 200: ref(AiAgent), ...errorResponses(401, 403, 404, 415, 422) },
      },
    },
    async (request) =>
      uploadBrandGuidelines(
        app.services,
        workspaceOf(request).id,
        request.params.id,
        uploadedFile(request, 'file'),
        { maxBytes: maxBrandGuidelinesBytes },
      ),
  );

  app.get(
    documentPath,
    {
      config: { permission: 'signed_in' },
      schema: {
        operationId: 'downloadAiAgentBrandGuidelinesDoc',
        tags,
        summary: 'Download an AI agent’s brand guidelines document',
        description:
          'The file as uploaded, as an attachment under its file name. 404 when the agent has no document.',
        params: AiAgentParams,
        response: {
          200: Type.Unsafe<unknown>({ type: 'string', format: 'binary', description: 'The document' }),
          ...errorResponses(401, 403, 404, 422),
        },
      },
    },
    async (request, reply) =>
      sendBrandGuidelines(app.services, workspaceOf(request).id, request.params.id, reply),
  );

  app.delete(
    documentPath,
    {
      config: { permission: 'update_ai_agents' },
      schema: {
        operationId: 'deleteAiAgentBrandGuidelinesDoc',
        tags,
        summary: 'Remove an AI agent’s brand guidelines document',
        description:
          'Deletes the file, its extracted text and brand_guidelines_document_name. Removing a document the agent ' +
          'does not have is not an error.',
        params: AiAgentParams,
        response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await deleteBrandGuidelines(app.services, workspaceOf(request).id, request.params.id);
      return reply.code(204).send(null);
    },
  );
};

export const aiAgentsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(crudRoutes);
  await app.register(documentRoutes);
};
