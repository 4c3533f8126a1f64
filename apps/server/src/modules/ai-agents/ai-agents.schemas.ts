import { Type } from 'typebox';
import { Description, Id, IdParams, Name, Prompt, RequestBody, ref, Timestamp } from '../../http/schemas.ts';
import { FileField } from '../../http/uploads.ts';

/** The largest brand guidelines document accepted. */
export const maxBrandGuidelinesBytes = 10 * 1024 * 1024;

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(
  schema: T,
  options: { description?: string; examples?: unknown[] } = {},
) => Type.Union([schema, Type.Null()], options);

export const AiAgentBrandGuidelinesDocument = Type.Object(
  {
    filename: Type.String({ description: 'The file name as uploaded', examples: ['Brand book 2026.pdf'] }),
    content_type: Type.String({
      description: 'What Letterset recognised the file as (from its bytes, not the type the client sent)',
      examples: ['application/pdf'],
    }),
    size: Type.Integer({ description: 'Bytes stored', examples: [482113] }),
    characters: Type.Integer({
      description: 'Characters of text extracted from it, which AI features read',
      examples: [18204],
    }),
    url: Type.String({
      description:
        'Where to download the file: an API address that needs the same sign-in or API key as the rest of the API',
    }),
  },
  { $id: 'AiAgentBrandGuidelinesDocument' },
);

export const AiAgent = Type.Object(
  {
    id: Type.Integer(),
    name: nullable(Type.String(), { examples: ['My AI Agent'] }),
    company_name: nullable(Type.String(), {
      description: 'The company the agent refers to in generated content',
      examples: ['Acme Travel'],
    }),
    company_overview: nullable(Type.String(), { description: 'Context about the company' }),
    tone: nullable(Type.String(), { examples: ['Professional but friendly'] }),
    guidelines: nullable(Type.String(), {
      description: 'Rules the writing follows',
      examples: ['Always include a call-to-action. Avoid using jargon.'],
    }),
    brand_guidelines_document_name: nullable(Type.String(), {
      description: 'What the brand guidelines document is called; by default its file name without extension',
      examples: ['My Company Brand Guidelines'],
    }),
    brand_guidelines_document: Type.Union([ref(AiAgentBrandGuidelinesDocument), Type.Null()], {
      description: 'The uploaded brand guidelines document, or null when there is none',
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'AiAgent' },
);

const AgentName = Name({ description: 'Unique in the workspace (case aside)', examples: ['My AI Agent'] });
const CompanyName = Name({ examples: ['Acme Travel'] });
const CompanyOverview = Prompt({
  minLength: 1,
  examples: ['Acme Travel sells city breaks across Europe to couples and young families.'],
});
const Tone = Description({ minLength: 1, examples: ['Professional but friendly'] });
const Guidelines = Prompt({
  minLength: 1,
  examples: ['Always include a call-to-action. Avoid using jargon.'],
});
const DocumentName = Name({ examples: ['My Company Brand Guidelines'] });

/** Everything but the name may be null (or left out): an agent can start as little as a name. */
const optionalFields = {
  company_name: Type.Optional(nullable(CompanyName)),
  company_overview: Type.Optional(nullable(CompanyOverview)),
  tone: Type.Optional(nullable(Tone)),
  guidelines: Type.Optional(nullable(Guidelines)),
  brand_guidelines_document_name: Type.Optional(nullable(DocumentName)),
};

export const CreateAiAgentBody = RequestBody({ name: AgentName, ...optionalFields });
export const UpdateAiAgentBody = RequestBody({ name: Type.Optional(AgentName), ...optionalFields });

export const UploadBrandGuidelinesBody = Type.Object(
  {
    file: FileField(
      'A PDF, a Word document (.docx), Markdown (.md) or plain text (.txt, UTF-8), at most 10 MB; what it is is read from its bytes',
    ),
  },
  { additionalProperties: false },
);

export const AiAgentParams = Type.Object({ workspace_id: Id(), ...IdParams.properties });
